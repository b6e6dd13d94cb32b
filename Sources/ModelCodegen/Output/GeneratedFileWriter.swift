import Foundation

/// Writes generated files into a directory the way build steps need: a file whose content did
/// not change is left alone (its modification time stays, so nothing recompiles), and files the
/// generator wrote earlier for the same model but no longer generates (an entity removed or
/// renamed) are removed — only files whose first line is the generator's header for that model.
public enum GeneratedFileWriter {
  /// What writing did, by file name (sorted).
  public struct Report: Sendable, Hashable {
    /// Files created or changed.
    public var written: [String] = []
    /// Files already up to date.
    public var unchanged: [String] = []
    /// Files removed because the model no longer generates them.
    public var removed: [String] = []

    public init(written: [String] = [], unchanged: [String] = [], removed: [String] = []) {
      self.written = written
      self.unchanged = unchanged
      self.removed = removed
    }
  }

  /// Writes the files into `directory` (created when missing) and removes stale ones.
  ///
  /// A file whose contents would not change is not rewritten (``Report/unchanged``); each
  /// other file is replaced atomically.
  ///
  /// - Throws: ``CodegenError`` (typed) naming the path when the directory cannot be created,
  ///   a file cannot be written, or a stale file cannot be removed.
  public static func write(_ code: GeneratedCode, to directory: URL) throws(CodegenError) -> Report {
    let manager = FileManager.default
    do {
      try manager.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw CodegenError("cannot create the output directory '\(directory.path)': \(error.localizedDescription)")
    }
    var report = Report()
    for file in code.files {
      let url = directory.appendingPathComponent(file.name)
      let data = Data(file.contents.utf8)
      if manager.contents(atPath: url.path) == data {
        report.unchanged.append(file.name)
        continue
      }
      try FileReplacement.replace(url, with: data)
      report.written.append(file.name)
    }
    let current = Set(code.files.map(\.name))
    let header = Data((FileHeader.firstLine(modelName: code.modelName) + "\n").utf8)
    let entries = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
    for name in entries.sorted() where name.hasSuffix(".swift") && !current.contains(name) {
      let url = directory.appendingPathComponent(name)
      guard let handle = try? FileHandle(forReadingFrom: url) else { continue }
      let prefix = (try? handle.read(upToCount: header.count)) ?? nil
      try? handle.close()
      guard prefix == header else { continue }
      do {
        try manager.removeItem(at: url)
      } catch {
        throw CodegenError("cannot remove the stale file '\(url.path)': \(error.localizedDescription)")
      }
      report.removed.append(name)
    }
    report.written.sort()
    report.unchanged.sort()
    return report
  }
}
