import DataModel
import Foundation
import Migration
import SchemaCheck
import TestSupport
import Testing

/// `modelc check` over every model of the shared corpus: it completes, and for every step its
/// findings agree with what `modelc diff` reports for that step (the same diff and inference:
/// whether lightweight migration can carry it out, what loses data, which types change).
@Suite(.enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
struct CorpusCheckTests {
  @Test func everyCorpusModelChecksAndAgreesWithDiff() throws {
    let corpus = try #require(TestPaths.corpus)
    let models = TestPaths.corpusModels()
    #expect(!models.isEmpty)
    // One run over the corpus folder, as a CI job runs it: every model is found and checked.
    let report = try SchemaCheck.run(SchemaCheckRequest(paths: [corpus.appendingPathComponent("models").path]))
    #expect(report.models.count == models.count)
    #expect(report.stepCount > 0)
    #expect(SARIFReport.render(report).contains("\"version\": \"2.1.0\""))
    var steps = 0
    for model in report.models {
      let read = ModelReader.read(path: model)
      guard let bundle = read.bundle else { continue }
      let brokenFiles = Set(read.diagnostics.errors.compactMap(\.location?.file))
      let modelFindings = report.findings.filter { $0.model == model }
      for (source, destination) in zip(bundle.versions, bundle.versions.dropFirst()) {
        guard let sourcePath = source.sourcePath, let destinationPath = destination.sourcePath,
          !brokenFiles.contains(sourcePath), !brokenFiles.contains(destinationPath)
        else { continue }
        steps += 1
        let stepFindings = modelFindings.filter { $0.fromVersion == source.name && $0.toVersion == destination.name }
        let place = "\(model): '\(source.name)' → '\(destination.name)'"
        // What `modelc diff --from source --to destination` computes and prints.
        let diff = ModelDiff(from: source, to: destination)
        var refused = false
        if !diff.isHashCompatible {
          do {
            _ = try LightweightInference.mappingModel(from: source, to: destination)
          } catch {
            refused = !error.refusals.isEmpty
          }
        }
        #expect(stepFindings.contains { $0.rule == "step-not-inferable" } == refused, "\(place)")
        let lossesByDiff = Set(
          diff.allChanges.filter { $0.losesData && $0.kind != .attributeTypeChanged }.map {
            "\($0.entity).\($0.property ?? "")"
          })
        let lossesByCheck = Set(
          stepFindings.filter { $0.rule == "data-loss" }.map { "\($0.entity ?? "").\($0.property ?? "")" })
        #expect(lossesByCheck == lossesByDiff, "\(place)")
        let typeChangesByDiff = Set(
          diff.allChanges.filter { $0.kind == .attributeTypeChanged && $0.changesHash }.map {
            "\($0.entity).\($0.property ?? "")"
          })
        let typeChangesByCheck = Set(
          stepFindings.filter { $0.rule == "type-change" }.map { "\($0.entity ?? "").\($0.property ?? "")" })
        #expect(typeChangesByCheck == typeChangesByDiff, "\(place)")
        for finding in stepFindings {
          #expect(finding.location != nil, "\(place): \(finding.rule) has no location")
        }
      }
    }
    #expect(steps == report.stepCount)
  }
}
