import DataModel
import Foundation

/// What to tell a user about a step lightweight inference refuses: the mapping model that covers
/// it, or the command that starts one.
public enum MappingCoverage {
  /// One sentence: `Covered by Migrations/AToB.xcmappingmodel.`, or that no mapping model covers
  /// the step, with the `modelc mapping new` command that starts one.
  public static func line(
    from source: String, to destination: String, catalog: MappingCatalog, modelPath: String
  ) -> String {
    if let mapping = catalog.mapping(from: source, to: destination) {
      return "Covered by \(displayPath(mappingBundlePath(mapping.file.path)))."
    }
    let name = "\(identifier(source))To\(identifier(destination))"
    return
      "No mapping model covers this step; start one with: modelc mapping new \(quoted(modelPath)) --from \(quoted(source)) --to \(quoted(destination)) --output Migrations/\(name).xcmappingmodel"
  }

  /// The bundle of an `xcmapping.xml` (the file itself for a `.cdm`).
  public static func mappingBundlePath(_ path: String) -> String {
    let url = URL(fileURLWithPath: path)
    return url.lastPathComponent == "xcmapping.xml" ? url.deletingLastPathComponent().path : path
  }

  /// A path relative to the current directory when it lies below it.
  public static func displayPath(_ path: String) -> String {
    let current = FileManager.default.currentDirectoryPath
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    if standardized.hasPrefix(current + "/") { return String(standardized.dropFirst(current.count + 1)) }
    return path
  }

  /// A version name made fit for a file name: letters and digits only.
  static func identifier(_ name: String) -> String {
    String(name.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
  }

  /// A shell word: quoted when it holds anything but safe characters.
  static func quoted(_ word: String) -> String {
    let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:")
    if !word.isEmpty, word.unicodeScalars.allSatisfy(safe.contains) { return word }
    return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
