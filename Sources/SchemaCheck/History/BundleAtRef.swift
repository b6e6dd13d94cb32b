import DataModel
import Foundation

/// A model bundle as it was at a git ref, read through `git ls-tree` and `git cat-file` into a
/// temporary folder (the working tree is never touched), so that it is read exactly as a bundle
/// on disk is.
///
/// Works in a shallow clone as long as the ref's commit was fetched.
struct BundleAtRef {
  /// The bundle at the ref, nil when the bundle did not exist there.
  let bundle: ModelBundle?
  /// The temporary folder holding the copy; removed by ``remove()``.
  let folder: URL

  /// Reads the bundle at `modelPath` (a path in the working tree) as it was at `ref`.
  static func read(modelPath: String, ref: String, git: GitRunner) throws(CheckInputError) -> BundleAtRef {
    let bundleURL = URL(fileURLWithPath: modelPath).standardizedFileURL.resolvingSymlinksInPath()
    let parent = bundleURL.deletingLastPathComponent().path
    let top = try git.run(["rev-parse", "--show-toplevel"], in: parent)
    guard top.status == 0 else {
      throw CheckInputError(
        "--against needs a git repository, and '\(modelPath)' is not in one",
        notes: ["run 'modelc check' inside a clone of the repository, or without --against"])
    }
    let root = String(decoding: top.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let rootPath = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
    let verify = try git.run(["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"], in: rootPath)
    guard verify.status == 0 else {
      throw CheckInputError(
        "the git ref '\(ref)' does not exist in the repository at '\(rootPath)'",
        notes: [
          "fetch it first, e.g. 'git fetch origin main' (in a shallow clone: 'git fetch --depth=1 origin main'); in GitHub Actions, use actions/checkout with fetch-depth: 0"
        ])
    }
    guard bundleURL.path.hasPrefix(rootPath + "/") else {
      throw CheckInputError("'\(modelPath)' is outside the git repository at '\(rootPath)'")
    }
    let relative = String(bundleURL.path.dropFirst(rootPath.count + 1))
    let listing = try git.run(["ls-tree", "-r", "-z", "--name-only", ref, "--", relative + "/"], in: rootPath)
    guard listing.status == 0 else {
      throw CheckInputError("git could not list '\(relative)' at '\(ref)': \(listing.standardError)")
    }
    let files = listing.standardOutput.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-check-\(UUID().uuidString)")
    guard !files.isEmpty else { return BundleAtRef(bundle: nil, folder: folder) }
    let copy = folder.appendingPathComponent(bundleURL.lastPathComponent)
    for file in files {
      let blob = try git.run(["cat-file", "blob", "\(ref):\(file)"], in: rootPath)
      guard blob.status == 0 else {
        throw CheckInputError("git could not read '\(file)' at '\(ref)': \(blob.standardError)")
      }
      let target = copy.appendingPathComponent(String(file.dropFirst(relative.count + 1)))
      do {
        try FileManager.default.createDirectory(
          at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try blob.standardOutput.write(to: target)
      } catch {
        throw CheckInputError("cannot write a temporary copy of '\(file)' at '\(ref)': \(error)")
      }
    }
    let result = ModelReader.read(path: copy.path, validate: false)
    return BundleAtRef(bundle: result.bundle, folder: folder)
  }

  /// Removes the temporary copy.
  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }
}
