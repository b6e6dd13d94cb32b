import DataModel

/// Checks one model bundle: validation, every consecutive version step, and its mapping models.
public struct ModelChecker: Sendable {
  /// Where mapping models come from.
  public var mappings: any MappingModelProvider

  public init(mappings: any MappingModelProvider = CatalogMappingModels()) {
    self.mappings = mappings
  }

  /// What checking one bundle gave.
  public struct Result: Sendable {
    /// The bundle, when it could be read.
    public var bundle: ModelBundle?
    /// Every finding, before configuration.
    public var findings: [Finding]
    /// How many steps were checked.
    public var stepCount: Int
  }

  /// Reads and checks the bundle at `modelPath`.
  public func check(modelPath: String) -> Result {
    let read = ModelReader.read(path: modelPath)
    var findings = read.diagnostics.errors.map { invalidModel($0, modelPath: modelPath) }
    guard let bundle = read.bundle else { return Result(bundle: nil, findings: findings, stepCount: 0) }
    // Steps touching a version with errors are not diffed: its references may not resolve.
    let brokenFiles = Set(read.diagnostics.errors.compactMap(\.location?.file))
    var stepCount = 0
    for (source, destination) in zip(bundle.versions, bundle.versions.dropFirst()) {
      guard let sourcePath = source.sourcePath, let destinationPath = destination.sourcePath,
        !brokenFiles.contains(sourcePath), !brokenFiles.contains(destinationPath)
      else { continue }
      let step = VersionStep(modelPath: modelPath, source: source, destination: destination)
      let mapping = mappings.mapping(from: source, to: destination, in: bundle, modelPath: modelPath)
      findings += StepChecker(step: step, mapping: mapping).findings()
      stepCount += 1
    }
    // `mapping-orphaned` and `mapping-invalid` are produced here, from what the mapping-model
    // provider reports about the mapping models it read (`CatalogMappingModels`: the mapping
    // reader and MappingChecker of the Migration module).
    findings += mappings.problems(in: bundle, modelPath: modelPath).map { problem in
      Finding(
        rule: problem.kind == .orphaned ? RuleCatalogue.mappingOrphaned : RuleCatalogue.mappingInvalid,
        message: "mapping model '\(problem.mappingName)': \(problem.message)", help: problem.help,
        location: problem.location, model: modelPath, fromVersion: problem.fromVersion, toVersion: problem.toVersion)
    }
    return Result(bundle: bundle, findings: findings, stepCount: stepCount)
  }

  /// An `invalid-model` finding for a validation error.
  private func invalidModel(_ diagnostic: Diagnostic, modelPath: String) -> Finding {
    var version: String?
    if let file = diagnostic.location?.file {
      let parts = file.split(separator: "/")
      if let directory = parts.dropLast().last, directory.hasSuffix(".xcdatamodel") {
        version = String(directory.dropLast(".xcdatamodel".count))
      }
    }
    return Finding(
      rule: RuleCatalogue.invalidModel, message: diagnostic.message,
      help: (diagnostic.notes.isEmpty
        ? "run 'modelc validate \(modelPath)' for details" : diagnostic.notes.joined(separator: "; "))
        + " (validation code: \(diagnostic.code))",
      location: diagnostic.location, model: modelPath, fromVersion: version, entity: diagnostic.entity,
      property: diagnostic.property)
  }
}
