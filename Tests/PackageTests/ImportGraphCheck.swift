/// Checks a package's import lines and manifest against a layering, and says what breaks it.
///
/// Every finding is a line of text naming the file and line (or the manifest target) and what
/// to change; no findings means the import graph is the layering.
struct ImportGraphCheck {
  /// For each layered target, the package targets it may import.
  var allowedImports: [String: Set<String>]
  /// For each target, the modules it may re-export with `@_exported`.
  var reExports: [String: Set<String>]
  /// Modules that are not targets of the package and that any target may import.
  var toolchainModules: Set<String>
  /// The targets `Package.swift` declares.
  var targets: [ManifestTarget]
  /// The imports of each target's sources, by target name.
  var imports: [String: [SourceImport]]

  /// The check of this package's layering (``Layering``) over the given manifest and sources.
  init(targets: [ManifestTarget], imports: [String: [SourceImport]]) {
    self.allowedImports = Layering.allowedImports
    self.reExports = Layering.reExports
    self.toolchainModules = Layering.toolchainModules
    self.targets = targets
    self.imports = imports
  }

  /// Targets with sources under `Sources`: the libraries and executables the layering orders.
  var layeredTargets: [ManifestTarget] {
    targets.filter { $0.kind != .testTarget && $0.kind != .systemLibrary && $0.path.hasPrefix("Sources/") }
  }

  /// Test targets and the support targets kept under `Tests`.
  var testTargets: [ManifestTarget] {
    targets.filter { $0.kind != .systemLibrary && !$0.path.hasPrefix("Sources/") }
  }

  /// The target a module name belongs to, for package modules.
  private var targetByModule: [String: String] {
    Dictionary(targets.map { ($0.moduleName, $0.name) }, uniquingKeysWith: { first, _ in first })
  }

  /// Imports of a layered target outside its allowed set, imports of modules that are neither
  /// package targets nor the toolchain's, and `@_exported` imports the layering does not list.
  func sourceFindings() -> [String] {
    var findings: [String] = []
    for target in layeredTargets {
      guard let allowed = allowedImports[target.name] else {
        findings.append(
          "\(target.path): the target \(target.name) is not in the layering; add it to Layering.allowedImports "
            + "(and CONTRIBUTING.md's module map) with the targets it may import")
        continue
      }
      for found in imports[target.name] ?? [] {
        if let imported = targetByModule[found.module] {
          if !allowed.contains(imported) {
            findings.append(
              "\(found.location): \(target.name) imports \(imported), which is not below it in the layering "
                + "(it may import \(list(allowed)))")
          }
        } else if !toolchainModules.contains(found.module) {
          findings.append(unknownModule(found, in: target.name))
        }
        if found.isExported, !(reExports[target.name]?.contains(found.module) ?? false) {
          findings.append(
            "\(found.location): \(target.name) re-exports \(found.module) with @_exported; only an umbrella "
              + "re-exports (Layering.reExports and Package.swift's comment say which), so import it where it is used")
        }
      }
    }
    return findings
  }

  /// Differences between `Package.swift` and the sources: a layered target must declare
  /// exactly the package targets it imports, and those within the layering; a test target must
  /// declare every package target it imports; every layering entry must be a target.
  func manifestFindings() -> [String] {
    var findings: [String] = []
    let names = Set(targets.map(\.name))
    for name in allowedImports.keys.sorted() where !names.contains(name) {
      findings.append("Package.swift: the layering lists \(name), which Package.swift does not declare")
    }
    for target in targets where !target.unreadDependencies.isEmpty {
      findings.append(
        "Package.swift: \(target.name) lists dependencies by other than a plain name "
          + "(\(target.unreadDependencies.joined(separator: ", "))); the layering check reads plain names only")
    }
    for target in layeredTargets {
      let declared = Set(target.dependencies)
      let imported = importedTargets(of: target)
      if let allowed = allowedImports[target.name], !declared.isSubset(of: allowed) {
        findings.append(
          "Package.swift: \(target.name) depends on \(list(declared.subtracting(allowed))), "
            + "which the layering does not allow (\(target.name) may import \(list(allowed)))")
      }
      if !imported.isSubset(of: declared) {
        findings.append(
          "Package.swift: \(target.name) imports \(list(imported.subtracting(declared))) without declaring "
            + "the dependency; add it to the target's dependencies")
      }
      if !declared.isSubset(of: imported) {
        findings.append(
          "Package.swift: \(target.name) declares \(list(declared.subtracting(imported))) but no file of it "
            + "imports that; remove the dependency or import what it is for")
      }
    }
    for target in testTargets {
      let missing = importedTargets(of: target).subtracting(target.dependencies)
      if !missing.isEmpty {
        findings.append(
          "Package.swift: the test target \(target.name) imports \(list(missing)) without declaring the "
            + "dependency; add it to the target's dependencies")
      }
      for found in imports[target.name] ?? []
      where targetByModule[found.module] == nil && !toolchainModules.contains(found.module) {
        findings.append(unknownModule(found, in: target.name))
      }
    }
    return findings
  }

  /// Cycles in the layering itself: a target that may import, directly or not, itself.
  func layeringCycles() -> [String] {
    var findings: [String] = []
    for start in allowedImports.keys.sorted() {
      var seen: Set<String> = []
      var pending = Array(allowedImports[start] ?? [])
      while let next = pending.popLast() {
        if next == start {
          findings.append("Layering: \(start) may import itself through its dependencies; the layers must not cycle")
          break
        }
        if seen.insert(next).inserted { pending.append(contentsOf: allowedImports[next] ?? []) }
      }
    }
    return findings
  }

  /// Every finding: sources, manifest and the layering's own shape.
  func findings() -> [String] {
    layeringCycles() + sourceFindings() + manifestFindings()
  }

  /// The package targets a target's sources import.
  private func importedTargets(of target: ManifestTarget) -> Set<String> {
    Set((imports[target.name] ?? []).compactMap { targetByModule[$0.module] })
  }

  private func unknownModule(_ found: SourceImport, in target: String) -> String {
    "\(found.location): \(target) imports \(found.module), which is neither a target of this package nor a "
      + "toolchain module; the package depends on no other package"
  }

  private func list(_ names: Set<String>) -> String {
    names.isEmpty ? "nothing of this package" : names.sorted().joined(separator: ", ")
  }
}
