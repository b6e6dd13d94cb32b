import Foundation

/// Replaces a file's content through a temporary file renamed over it, so that a compiler never
/// reads a half-written file.
///
/// The data is not synced to disk (`Data.write` syncs every file): generated files are
/// regenerated after a crash, and syncing hundreds of them costs more than generating them.
enum FileReplacement {
  static func replace(_ url: URL, with data: Data) throws(CodegenError) {
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw failure(url) }
    let complete = data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
    let error = failure(url)
    guard close(descriptor) == 0, complete, rename(temporary.path, url.path) == 0 else {
      unlink(temporary.path)
      throw error
    }
  }

  private static func failure(_ url: URL) -> CodegenError {
    CodegenError("cannot write '\(url.path)': \(String(cString: strerror(errno)))")
  }
}
