import DataModel
import Foundation

/// Runs `modelc check`: finds the models, checks each (validation, version steps, mapping
/// models), compares them with a git ref when asked, checks the data of the stores given, and
/// applies the configuration.
public enum SchemaCheck {
  /// Checks what the request names; fails on an input that cannot be used (a missing path,
  /// git or ref, a store that cannot be read or matches no model). What the models break is not
  /// an error: it is in the report's findings, at the severity the configuration gives.
  ///
  /// ```swift
  /// let report = try SchemaCheck.run(
  ///   SchemaCheckRequest(
  ///     paths: ["Models"], against: "origin/main",
  ///     configuration: try CheckConfiguration.read(path: ".modelc.json")))
  /// print(ReportFormat.text.render(report, strict: false))
  /// let failed = report.findings.contains { $0.severity == .error }
  /// ```
  ///
  /// - Throws: ``CheckInputError`` (typed), with a note on the fix: a path that does not
  ///   exist, or paths holding no model bundle; git missing or failing, a ref it cannot read,
  ///   or a model outside the repository (with `against`); a store that does not exist, cannot
  ///   be read, or matches no version of the models checked.
  public static func run(_ request: SchemaCheckRequest) throws(CheckInputError) -> CheckReport {
    let paths = request.paths.isEmpty ? ["."] : request.paths
    let models = try ModelDiscovery.models(in: paths)
    guard !models.isEmpty else {
      throw CheckInputError(
        "no model bundles (.xcdatamodeld) found in \(paths.map { "'\($0)'" }.joined(separator: ", "))",
        notes: ["pass the model bundles to check, e.g. 'modelc check Models/Tasks.xcdatamodeld'"])
    }
    let checker = ModelChecker(mappings: request.mappings)
    var findings: [Finding] = []
    var stepCount = 0
    var bundles: [(path: String, bundle: ModelBundle)] = []
    // Models are independent, so they are checked on all cores; results keep the models' order.
    let results = ResultSlots<ModelChecker.Result>(count: models.count)
    DispatchQueue.concurrentPerform(iterations: models.count) { index in
      results[index] = checker.check(modelPath: models[index])
    }
    for (model, result) in zip(models, results.values) {
      findings += result.findings
      stepCount += result.stepCount
      if let bundle = result.bundle { bundles.append((model, bundle)) }
    }
    var diagrams: [ReportDiagram] = []
    var comparedAt: [String: ModelVersion] = [:]
    if let ref = request.against {
      let git = try GitRunner()
      for (path, bundle) in bundles {
        let released = try BundleAtRef.read(modelPath: path, ref: ref, git: git)
        defer { released.remove() }
        guard let releasedBundle = released.bundle else { continue }
        findings += HistoryChecker(released: releasedBundle, current: bundle, modelPath: path, ref: ref).findings()
        comparedAt[path] = releasedBundle.currentVersion
      }
    }
    for (path, bundle) in bundles {
      let current = bundle.currentVersion
      if let old = comparedAt[path] {
        diagrams.append(
          ReportDiagram(
            model: path, title: "'\(old.name)' at \(request.against ?? "") → '\(current.name)'",
            mermaid: MermaidRenderer.render(EntityDiagram(from: old, to: current))))
      } else if bundle.currentVersionIndex > 0 {
        let previous = bundle.versions[bundle.currentVersionIndex - 1]
        diagrams.append(
          ReportDiagram(
            model: path, title: "'\(previous.name)' → '\(current.name)'",
            mermaid: MermaidRenderer.render(EntityDiagram(from: previous, to: current))))
      } else {
        diagrams.append(
          ReportDiagram(
            model: path, title: "'\(current.name)'", mermaid: MermaidRenderer.render(EntityDiagram(version: current))))
      }
    }
    for store in request.stores {
      findings += try storeFindings(store, bundles: bundles)
    }
    let (kept, ignored) = request.configuration.apply(to: findings)
    return CheckReport(
      findings: kept, ignoredCount: ignored, models: models, stepCount: stepCount, stores: request.stores,
      against: request.against, diagrams: diagrams)
  }

  private static func storeFindings(_ store: String, bundles: [(path: String, bundle: ModelBundle)])
    throws(CheckInputError) -> [Finding]
  {
    guard FileManager.default.fileExists(atPath: store) else {
      throw CheckInputError("no store at '\(store)'", notes: ["pass the path of a SQLite store file with --store"])
    }
    do {
      for (path, bundle) in bundles where try StoreDataChecker.storeVersion(of: store, in: bundle) != nil {
        return try StoreDataChecker(storePath: store, bundle: bundle, modelPath: path).findings()
      }
    } catch {
      throw CheckInputError("cannot read the store '\(store)': \(error)")
    }
    throw CheckInputError(
      "the store '\(store)' matches no version of the models checked (\(bundles.map(\.path).joined(separator: ", ")))",
      notes: ["its version hashes were written for another model, or for a version that is no longer in the bundle"])
  }
}
