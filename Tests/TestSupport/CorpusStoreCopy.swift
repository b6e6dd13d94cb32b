import Foundation

extension TestPaths {
  /// A writable copy of a corpus store, with its `-wal` and `-shm` files, in `directory`; the
  /// corpus itself is read-only and must never be opened in place.
  public static func copyOfCorpusStore(_ project: String, _ file: String, into directory: URL) throws -> URL? {
    guard let original = corpusStore(project, file) else { return nil }
    let copy = directory.appendingPathComponent(file)
    for suffix in ["", "-wal", "-shm"] {
      let source = original.path + suffix
      guard FileManager.default.fileExists(atPath: source) else { continue }
      try FileManager.default.copyItem(atPath: source, toPath: copy.path + suffix)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path + suffix)
    }
    return copy
  }

  /// A model bundle of the corpus (`models/<project>/<bundle>`).
  public static func corpusModel(_ project: String, _ bundle: String) -> URL? {
    corpus?.appendingPathComponent("models").appendingPathComponent(project).appendingPathComponent(bundle)
  }
}
