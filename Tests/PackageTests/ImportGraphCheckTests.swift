import Testing

/// The check fails on each way a change can break the layering, and its readers read what this
/// package writes; these run on made-up sources and manifests, so they hold whatever the
/// package looks like.
@Suite struct ImportGraphCheckTests {
  private func target(
    _ name: String, _ dependencies: [String] = [], kind: ManifestTarget.Kind = .target, path: String? = nil
  ) -> ManifestTarget {
    ManifestTarget(
      name: name, kind: kind, dependencies: dependencies, unreadDependencies: [],
      path: path ?? (kind == .testTarget ? "Tests/\(name)" : "Sources/\(name)"))
  }

  /// The check of `targets` against the real layering, narrowed to the targets given (a made-up
  /// manifest declares only some of the package's targets).
  private func check(_ targets: [ManifestTarget], _ imports: [String: [SourceImport]]) -> ImportGraphCheck {
    var check = ImportGraphCheck(targets: targets, imports: imports)
    let names = Set(targets.map(\.name))
    check.allowedImports = check.allowedImports.filter { names.contains($0.key) }
    return check
  }

  private func sources(_ target: String, _ text: String) -> [SourceImport] {
    ImportScanner.imports(in: text, file: "Sources/\(target)/File.swift")
  }

  /// The real layering's lower targets, declared as they should be, for checks that add one
  /// target or import to them.
  private var baseTargets: [ManifestTarget] {
    [
      target("CSQLite", kind: .systemLibrary), target("DataModel"), target("SQLite", ["CSQLite"]),
      target("Persistence", ["DataModel", "SQLite"]), target("Migration", ["DataModel", "SQLite", "Persistence"]),
    ]
  }

  private var baseImports: [String: [SourceImport]] {
    [
      "DataModel": sources("DataModel", "import Foundation"),
      "SQLite": sources("SQLite", "import CSQLite"),
      "Persistence": sources("Persistence", "@_exported import DataModel\nimport SQLite"),
      "Migration": sources("Migration", "import DataModel\nimport Persistence\nimport SQLite"),
    ]
  }

  @Test func aConsistentPackageHasNoFindings() {
    #expect(check(baseTargets, baseImports).findings() == [])
  }

  @Test func anImportFromALayerAboveIsFound() {
    var imports = baseImports
    imports["Persistence"]! += sources("Persistence", "import Foundation\nimport Migration")
    let findings = check(baseTargets, imports).sourceFindings()
    #expect(
      findings == [
        "Sources/Persistence/File.swift:2: Persistence imports Migration, which is not below it in the layering "
          + "(it may import DataModel, SQLite)"
      ])
  }

  @Test func sqliteImportingTheLayerAboveIsFound() {
    var imports = baseImports
    imports["SQLite"]! += sources("SQLite", "#if DEBUG\n  @testable import Persistence\n#endif")
    let findings = check(baseTargets, imports).sourceFindings()
    #expect(findings.count == 1)
    #expect(findings.first?.hasPrefix("Sources/SQLite/File.swift:2: SQLite imports Persistence") == true)
  }

  @Test func anImportOfAnotherPackageIsFound() {
    var imports = baseImports
    imports["Migration"]! += sources("Migration", "import GRDB")
    let findings = check(baseTargets, imports).sourceFindings()
    #expect(findings.count == 1)
    #expect(findings.first?.contains("Migration imports GRDB, which is neither a target of this package") == true)
  }

  @Test func aReExportOutsideTheUmbrellaIsFound() {
    var imports = baseImports
    imports["Migration"] = sources("Migration", "import DataModel\n@_exported import Persistence\nimport SQLite")
    let findings = check(baseTargets, imports).sourceFindings()
    #expect(findings.count == 1)
    #expect(findings.first?.hasPrefix("Sources/Migration/File.swift:2: Migration re-exports Persistence") == true)
  }

  @Test func aTargetOutsideTheLayeringIsFound() {
    var imports = baseImports
    imports["Extras"] = sources("Extras", "import DataModel")
    let findings = ImportGraphCheck(targets: baseTargets + [target("Extras", ["DataModel"])], imports: imports)
      .sourceFindings()
    #expect(findings.count == 1)
    #expect(findings.first?.contains("the target Extras is not in the layering") == true)
  }

  @Test func anImportWithoutItsDependencyIsFound() {
    var targets = baseTargets
    targets[4] = target("Migration", ["DataModel", "Persistence"])
    let findings = check(targets, baseImports).manifestFindings()
    #expect(
      findings == [
        "Package.swift: Migration imports SQLite without declaring the dependency; add it to the target's dependencies"
      ])
  }

  @Test func aDependencyNothingImportsIsFound() {
    var imports = baseImports
    imports["Migration"] = sources("Migration", "import DataModel\nimport Persistence")
    let findings = check(baseTargets, imports).manifestFindings()
    #expect(findings.count == 1)
    #expect(findings.first?.contains("Migration declares SQLite but no file of it imports that") == true)
  }

  @Test func aDependencyAgainstTheLayeringIsFound() {
    var targets = baseTargets
    targets[3] = target("Persistence", ["DataModel", "SQLite", "Migration"])
    let findings = check(targets, baseImports).manifestFindings()
    #expect(findings.contains { $0.contains("Persistence depends on Migration, which the layering does not allow") })
  }

  @Test func aTestTargetImportingWhatItDoesNotDeclareIsFound() {
    var imports = baseImports
    imports["MigrationTests"] = ImportScanner.imports(
      in: "import Migration\nimport Persistence\nimport Testing", file: "Tests/MigrationTests/File.swift")
    let targets = baseTargets + [target("MigrationTests", ["Migration"], kind: .testTarget)]
    let findings = check(targets, imports).manifestFindings()
    #expect(findings.count == 1)
    #expect(findings.first?.contains("the test target MigrationTests imports Persistence without declaring") == true)
  }

  @Test func aCycleInTheLayeringIsFound() {
    var check = ImportGraphCheck(targets: [], imports: [:])
    check.allowedImports = ["A": ["B"], "B": ["C"], "C": ["A"], "D": ["A"]]
    #expect(check.layeringCycles().count == 3)
  }

  @Test func theScannerReadsEveryFormOfImport() {
    let source = #"""
      // import Commented
      /* import Blocked
         import StillBlocked */
      import Foundation
      @testable import Persistence
      @_exported import DataModel
      @preconcurrency import Dispatch
      package import SQLite
      import struct Migration.StoreMigration
      #if canImport(Glibc)
        import Glibc
      #endif
      let text = """
        import Printed
        """
      let importance = 1  // importance is not an import
      """#
    let found = ImportScanner.imports(in: source, file: "F.swift")
    #expect(
      found.map(\.module) == ["Foundation", "Persistence", "DataModel", "Dispatch", "SQLite", "Migration", "Glibc"])
    #expect(found.map(\.line) == [4, 5, 6, 7, 8, 9, 11])
    #expect(found.filter(\.isExported).map(\.module) == ["DataModel"])
  }

  @Test func theManifestReaderReadsThisPackagesForms() {
    let manifest = #"""
      let package = Package(
        products: [.library(name: "SQLite", targets: ["SQLite"]), .plugin(name: "P", targets: ["P"])],
        targets: [
          // Not a target: .target(name: "Commented", dependencies: ["X"]),
          .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
          .target(name: "SQLite", dependencies: ["CSQLite"]),
          .target(
            name: "TaskKit", dependencies: ["Persistence", "Migration"], exclude: ["modelc.json"], plugins: ["P"]),
          .executableTarget(name: "modelc-bench", dependencies: ["CSQLite", .product(name: "X", package: "x")]),
          .plugin(name: "P", capability: .buildTool(), dependencies: ["modelc"]),
          .target(name: "TestSupport", path: "Tests/TestSupport"),
          .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        ]
      )
      """#
    let targets = ManifestReader.targets(in: manifest)
    #expect(targets.map(\.name) == ["CSQLite", "SQLite", "TaskKit", "modelc-bench", "TestSupport", "SQLiteTests"])
    #expect(targets.map(\.kind) == [.systemLibrary, .target, .target, .executableTarget, .target, .testTarget])
    #expect(targets[1].dependencies == ["CSQLite"])
    #expect(targets[2].dependencies == ["Persistence", "Migration"])
    #expect(targets[3].dependencies == ["CSQLite"])
    #expect(targets[3].unreadDependencies == [#".product(name: "X", package: "x")"#])
    #expect(targets[3].moduleName == "modelc_bench")
    #expect(
      targets.map(\.path) == [
        "Sources/CSQLite", "Sources/SQLite", "Sources/TaskKit", "Sources/modelc-bench", "Tests/TestSupport",
        "Tests/SQLiteTests",
      ])
  }
}
