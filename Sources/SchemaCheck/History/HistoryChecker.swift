import DataModel
import Foundation

/// Compares a model bundle with the same bundle at a git ref (the released history): a version
/// that existed there must keep its version hashes, stay in the bundle, keep its place in the
/// migration order, and the current version must not move back to an older one.
///
/// These edits are the most expensive mistake in a Core Data app: stores written with the
/// released version match no version any more and fail to open on every user's device.
struct HistoryChecker {
  /// The bundle at the ref.
  let released: ModelBundle
  /// The bundle in the working tree.
  let current: ModelBundle
  /// The working tree bundle's path.
  let modelPath: String
  /// The ref, for messages.
  let ref: String

  func findings() -> [Finding] {
    var findings: [Finding] = []
    for old in released.versions {
      guard let new = current.version(named: old.name) else {
        findings.append(
          Finding(
            rule: RuleCatalogue.releasedVersionEdited,
            message:
              "version '\(old.name)' exists at '\(ref)' and was deleted; stores written with it can no longer be opened or migrated",
            help:
              "restore '\(old.name).xcdatamodel' from '\(ref)' (git checkout \(ref) -- '\(modelPath)/\(old.name).xcdatamodel')",
            location: ElementLocator(version: current.currentVersion).model, model: modelPath, fromVersion: old.name))
        continue
      }
      findings += edits(old: old, new: new)
    }
    findings += currentVersionMoved()
    findings += reordering()
    return findings
  }

  /// A released version's changes: hash changes (errors) and hash-neutral edits (notes).
  private func edits(old: ModelVersion, new: ModelVersion) -> [Finding] {
    let diff = ModelDiff(from: old, to: new)
    let locator = ElementLocator(version: new)
    var findings: [Finding] = []
    for entityDiff in diff.entities {
      let name = entityDiff.displayName
      if entityDiff.changesHash {
        let reasons = entityDiff.changes.filter(\.changesHash).map { change in
          "\(change.property.map { "'\($0)' " } ?? "")\(change.detail)"
        }
        let why = reasons.isEmpty ? "its version hash changed" : reasons.joined(separator: "; ")
        findings.append(
          Finding(
            rule: RuleCatalogue.releasedVersionEdited,
            message:
              "released version '\(old.name)' was edited since '\(ref)': the version hash of entity '\(name)' changed (\(why)); stores written with '\(old.name)' will fail to open",
            help:
              "revert '\(old.name)' to its state at '\(ref)' and make the change in a new model version (Editor › Add Model Version), then make that version current",
            location: entityDiff.destinationEntity.flatMap { locator.entity($0) } ?? locator.model, model: modelPath,
            fromVersion: old.name, entity: name))
      } else if entityDiff.sourceEntity != nil {
        for change in entityDiff.changes
        where [.defaultValueChanged, .validationChanged, .fetchIndexesChanged, .deletionRuleChanged].contains(
          change.kind)
        {
          let owner = change.property.map { "<attribute name=\"\($0)\">" } ?? "<entity name=\"\(name)\">"
          findings.append(
            Finding(
              rule: RuleCatalogue.hashUnchangedEdit,
              message:
                "released version '\(old.name)' was edited since '\(ref)' without changing its hashes: '\(name)\(change.property.map { ".\($0)" } ?? "")' \(change.detail); existing stores are not migrated, so the change only reaches new stores",
              help:
                "make the change in a new model version; if existing stores must change, add versionHashModifier=\"…\" to \(owner) there",
              location: locator.property(change.property, of: name) ?? locator.model, model: modelPath,
              fromVersion: old.name, entity: name, property: change.property))
        }
      }
    }
    return findings
  }

  /// The current version set to one older than the released current version.
  private func currentVersionMoved() -> [Finding] {
    let releasedCurrent = released.currentVersion.name
    let nowCurrent = current.currentVersion.name
    guard releasedCurrent != nowCurrent, let releasedIndex = released.index(ofVersionNamed: releasedCurrent),
      let nowIndexThen = released.index(ofVersionNamed: nowCurrent), nowIndexThen < releasedIndex
    else { return [] }
    return [
      Finding(
        rule: RuleCatalogue.releasedVersionEdited,
        message:
          "the current version moved back from '\(releasedCurrent)' (at '\(ref)') to the older '\(nowCurrent)'; stores already migrated to '\(releasedCurrent)' cannot be opened",
        help:
          "set the current version back to '\(releasedCurrent)' or a newer version (Xcode: File inspector › Model Version)",
        location: currentVersionFileLocation(), model: modelPath, fromVersion: releasedCurrent, toVersion: nowCurrent)
    ]
  }

  /// Released versions whose relative migration order changed.
  private func reordering() -> [Finding] {
    let common = Set(released.versions.map(\.name)).intersection(current.versions.map(\.name))
    let before = released.versions.map(\.name).filter(common.contains)
    let after = current.versions.map(\.name).filter(common.contains)
    guard before != after else { return [] }
    let orderFile = modelPath + "/" + ModelReader.versionOrderFileName
    let location =
      FileManager.default.fileExists(atPath: orderFile)
      ? SourceLocation(file: orderFile, line: 1, column: 1) : ElementLocator(version: current.currentVersion).model
    return [
      Finding(
        rule: RuleCatalogue.releasedVersionEdited,
        message:
          "the migration order of released versions changed since '\(ref)': it was \(before.joined(separator: " → ")), it is now \(after.joined(separator: " → ")); stores would migrate through the wrong steps",
        help:
          "keep the released order: name new versions so they sort after the released ones, or list every version oldest first in \(ModelReader.versionOrderFileName)",
        location: location, model: modelPath)
    ]
  }

  /// The `<string>` line of `.xccurrentversion`.
  private func currentVersionFileLocation() -> SourceLocation? {
    let path = modelPath + "/.xccurrentversion"
    guard let data = FileManager.default.contents(atPath: path) else {
      return ElementLocator(version: current.currentVersion).model
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
      if let range = line.range(of: "<string>") {
        return SourceLocation(
          file: path, line: index + 1,
          column: line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound) + 1)
      }
    }
    return SourceLocation(file: path, line: 1, column: 1)
  }
}
