import ArgumentParsing
import Foundation
import Persistence

/// Opening the store a `store` command names, at the model version its hashes match.
enum StoreOpening {
  /// The `--model` option every `store` subcommand takes.
  static let modelOption = OptionSpec(
    "--model", value: "MODEL", required: true,
    help: "The data model: a .xcdatamodeld bundle, a .xcdatamodel directory or a contents file.")

  /// The store's URL, after checking that it exists.
  static func existingStore(_ path: String) throws -> URL {
    guard FileManager.default.fileExists(atPath: path) else {
      throw CommandFailure(
        "no store at '\(path)'", notes: ["create one with 'modelc store create \(path) --model MODEL'"])
    }
    return URL(fileURLWithPath: path)
  }

  /// The version of the bundle the store's hashes match, with the store's metadata; a store
  /// matching none fails the command.
  static func version(of url: URL, in bundle: ModelBundle) throws -> (ModelVersion, StoreMetadata) {
    let metadata = try StoreMetadata.read(fromStoreAt: url)
    guard let version = metadata.matchingVersion(in: bundle) else {
      throw CommandFailure(
        "the store's version hashes match no version of the model '\(bundle.name)'",
        notes: closestVersionNotes(metadata, bundle: bundle) + [
          "the model's versions are: \(bundle.versions.map(\.name).joined(separator: ", "))",
          "the store was written for another model, or for a version that is not in this bundle",
        ])
    }
    return (version, metadata)
  }

  /// Notes naming the version closest to a store that matches none, and how they differ.
  static func closestVersionNotes(_ metadata: StoreMetadata, bundle: ModelBundle) -> [String] {
    guard let closest = metadata.closestVersion(in: bundle) else { return [] }
    return ["the closest version is '\(closest.versionName)' (\(closest.count) entities differ)"] + closest.summary
  }

  /// A container on an existing store at the version it is at (no migration).
  static func open(_ path: String, bundle: ModelBundle, readOnly: Bool) throws -> PersistentContainer {
    let url = try existingStore(path)
    let (version, _) = try version(of: url, in: bundle)
    return try PersistentContainer(
      bundle: bundle, versionName: version.name,
      options: StoreOptions(location: .file(url), isReadOnly: readOnly, createIfMissing: false))
  }
}
