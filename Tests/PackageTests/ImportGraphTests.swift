import Foundation
import TestSupport
import Testing

/// The package's import graph is the layering `Package.swift` and `CONTRIBUTING.md` describe:
/// every target under `Sources` imports only what lies below it (``Layering``), `Package.swift`
/// declares exactly those imports, and only the umbrella re-exports.
@Suite struct ImportGraphTests {
  /// The check over this package's `Package.swift` and sources.
  static func packageCheck() throws -> ImportGraphCheck {
    let root = TestPaths.packageRoot
    let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let targets = ManifestReader.targets(in: manifest)
    var imports: [String: [SourceImport]] = [:]
    for target in targets where target.kind != .systemLibrary {
      imports[target.name] = try ImportScanner.imports(under: root.appendingPathComponent(target.path), root: root)
    }
    return ImportGraphCheck(targets: targets, imports: imports)
  }

  /// The reader sees what the check relies on: every folder of `Sources` is a declared target,
  /// and imports known to be there are found (so an empty finding list is not an empty scan).
  @Test func theManifestAndSourcesAreRead() throws {
    let check = try Self.packageCheck()
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: TestPaths.packageRoot.appendingPathComponent("Sources").path)
    let declared = Set(check.targets.map(\.path))
    for folder in folders.sorted() {
      #expect(declared.contains("Sources/\(folder)"), "Sources/\(folder) is not a target in Package.swift")
    }
    let persistence = try #require(check.targets.first { $0.name == "Persistence" })
    #expect(persistence.dependencies == ["DataModel", "SQLite"])
    #expect(check.targets.first { $0.name == "GeneratedLibrary" }?.path == "Tests/GeneratedLibrary")
    #expect(check.imports["Persistence"]?.contains { $0.module == "SQLite" } == true)
    #expect(check.imports["Persistence"]?.contains { $0.module == "DataModel" && $0.isExported } == true)
    #expect(check.imports["SQLite"]?.contains { $0.module == "CSQLite" } == true)
    for target in check.layeredTargets {
      #expect(check.imports[target.name]?.isEmpty == false, "no import read in \(target.path)")
    }
  }

  @Test func theLayeringHasNoCycles() throws {
    #expect(try Self.packageCheck().layeringCycles() == [])
  }

  @Test func everyTargetImportsOnlyWhatLiesBelowIt() throws {
    let findings = try Self.packageCheck().sourceFindings()
    #expect(findings == [], "\(findings.joined(separator: "\n"))")
  }

  @Test func packageSwiftDeclaresExactlyWhatTheSourcesImport() throws {
    let findings = try Self.packageCheck().manifestFindings()
    #expect(findings == [], "\(findings.joined(separator: "\n"))")
  }
}
