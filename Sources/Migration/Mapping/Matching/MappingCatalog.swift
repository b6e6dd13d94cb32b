import DataModel
import Foundation

/// The mapping models found for a model bundle: every `.xcmappingmodel` bundle and `.cdm` file
/// under some folders, read and matched to the bundle's versions, so that a migration step can
/// ask which mapping covers it.
public struct MappingCatalog: Sendable {
  /// The mapping models that were read, in path order.
  public var mappings: [LoadedMappingModel]
  /// The files that could not be read, with why.
  public var problems: [MappingReadError]

  public init(mappings: [LoadedMappingModel] = [], problems: [MappingReadError] = []) {
    self.mappings = mappings
    self.problems = problems
  }

  /// Finds and reads the mapping models under `directories` (searched recursively, skipping
  /// hidden folders and `.build`), matched to `bundle`.
  public static func discover(in directories: [URL], bundle: ModelBundle) -> MappingCatalog {
    var catalog = MappingCatalog()
    let hashes = BundleVersionHashes(bundle)
    var seen: Set<String> = []
    for url in directories.flatMap(mappingFiles(under:)) where seen.insert(url.standardizedFileURL.path).inserted {
      do {
        catalog.mappings.append(try MappingModelLoader.load(contentsOf: url, bundle: bundle, hashes: hashes))
      } catch {
        catalog.problems.append(error)
      }
    }
    return catalog
  }

  /// The folders searched by default: `Migrations/` in the current directory when it exists,
  /// and the folder holding the model bundle.
  public static func defaultDirectories(forModelAt modelPath: String) -> [URL] {
    var directories: [URL] = []
    let migrations = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Migrations")
    if FileManager.default.fileExists(atPath: migrations.path) { directories.append(migrations) }
    var model = URL(fileURLWithPath: modelPath).standardizedFileURL
    if model.lastPathComponent == "contents" { model.deleteLastPathComponent() }
    if model.pathExtension == "xcdatamodel", model.deletingLastPathComponent().pathExtension == "xcdatamodeld" {
      model.deleteLastPathComponent()
    }
    directories.append(model.deletingLastPathComponent())
    return directories
  }

  /// The mapping model that maps `source` to `destination`, when one does.
  public func mapping(from source: String, to destination: String) -> LoadedMappingModel? {
    mappings.first { $0.source.version == source && $0.destination.version == destination }
  }

  /// The `.xcmappingmodel` bundles and `.cdm` files under a folder, sorted by path (or the
  /// path itself when it is one).
  static func mappingFiles(under directory: URL) -> [URL] {
    if ["xcmappingmodel", "cdm"].contains(directory.pathExtension) { return [directory] }
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
    else { return [] }
    var found: [URL] = []
    while let url = enumerator.nextObject() as? URL {
      let name = url.lastPathComponent
      if name == ".build" || name.hasSuffix(".xcdatamodeld") {
        enumerator.skipDescendants()
      } else if url.pathExtension == "xcmappingmodel" {
        found.append(url)
        enumerator.skipDescendants()
      } else if url.pathExtension == "cdm" {
        found.append(url)
      }
    }
    return found.sorted { $0.path < $1.path }
  }
}
