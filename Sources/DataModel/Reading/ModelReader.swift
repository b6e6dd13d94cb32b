import Foundation

/// The outcome of reading a model: the bundle when it could be assembled, and every diagnostic.
public struct ModelReadResult: Sendable {
  /// The bundle; nil when a version could not be read at all (malformed XML, missing files).
  public var bundle: ModelBundle?
  /// Reader and validator diagnostics, in file order.
  public var diagnostics: [Diagnostic]

  public init(bundle: ModelBundle?, diagnostics: [Diagnostic]) {
    self.bundle = bundle
    self.diagnostics = diagnostics
  }
}

/// Reads data models from disk exactly as Xcode writes them.
///
/// Accepts a versioned bundle (`Name.xcdatamodeld/`, one `Version.xcdatamodel/contents` per
/// version plus `.xccurrentversion`), a lone `Name.xcdatamodel/` directory, or a `contents` file.
public enum ModelReader {
  /// The name of the optional file inside a bundle that states the migration order of its
  /// versions, one version name per line, oldest first (lines starting with `#` are comments).
  public static let versionOrderFileName = ".modelc-versions"

  /// Reads and validates a model, returning the bundle and every diagnostic.
  ///
  /// Never throws: what cannot be read is a diagnostic, and ``ModelReadResult/bundle`` is nil
  /// when nothing usable was read. ``ModelBundle/init(contentsOf:)`` throws the errors instead.
  ///
  /// ```swift
  /// let result = ModelReader.read(path: "Models/Tasks.xcdatamodeld")
  /// for diagnostic in result.diagnostics { print(diagnostic) }  // errors and warnings, placed
  /// if let bundle = result.bundle, !result.diagnostics.containsErrors { print(bundle.currentVersion.name) }
  /// ```
  public static func read(path: String, validate: Bool = true) -> ModelReadResult {
    var diagnostics: [Diagnostic] = []
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return ModelReadResult(
        bundle: nil,
        diagnostics: [
          .error(
            "no-such-model", "no model at '\(path)'", at: nil,
            fix: "pass the path of a .xcdatamodeld bundle, e.g. Models/Tasks.xcdatamodeld")
        ])
    }
    let bundle: ModelBundle?
    var validationDiagnostics: [Diagnostic]?
    if !isDirectory.boolValue {
      // A `contents` file (or any file holding a model's XML).
      let versionName =
        url.lastPathComponent == "contents"
        ? url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
        : url.deletingPathExtension().lastPathComponent
      let (version, versionDiagnostics) = readVersion(contentsPath: path, name: versionName)
      diagnostics += versionDiagnostics
      bundle = version.map { ModelBundle(name: versionName, versions: [$0], path: path) }
    } else if url.pathExtension == "xcdatamodel"
      || (url.pathExtension != "xcdatamodeld" && FileManager.default.fileExists(atPath: join(path, "contents")))
    {
      let name = url.deletingPathExtension().lastPathComponent
      let (version, versionDiagnostics) = readVersionDirectory(path, name: name)
      diagnostics += versionDiagnostics
      bundle = version.map { ModelBundle(name: name, versions: [$0], path: path) }
    } else {
      let (readBundle, bundleDiagnostics, bundleValidation) = readVersionedBundle(path, validate: validate)
      diagnostics += bundleDiagnostics
      bundle = readBundle
      validationDiagnostics = bundleValidation
    }
    if validate, let bundle {
      diagnostics += validationDiagnostics ?? bundle.versions.flatMap(ModelValidator.validate)
    }
    return ModelReadResult(bundle: bundle, diagnostics: diagnostics)
  }

  /// Reads a model from XML text held in memory (tests, embedded schemas).
  public static func readVersion(xml: String, name: String, path: String = "<memory>") -> (ModelVersion?, [Diagnostic])
  {
    ContentsReader.read(bytes: Array(xml.utf8), path: path, versionName: name)
  }

  // MARK: - Versions

  /// A path inside a directory, built on the path as given so that diagnostics name files the
  /// way the user did (relative stays relative).
  private static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  private static func readVersion(contentsPath: String, name: String) -> (ModelVersion?, [Diagnostic]) {
    guard let data = FileManager.default.contents(atPath: contentsPath) else {
      return (
        nil,
        [
          .error(
            "unreadable-file", "cannot read '\(contentsPath)'", at: nil,
            fix: "check that the file exists and is readable")
        ]
      )
    }
    return ContentsReader.read(bytes: [UInt8](data), path: contentsPath, versionName: name)
  }

  private static func readVersionDirectory(_ path: String, name: String) -> (ModelVersion?, [Diagnostic]) {
    let contents = join(path, "contents")
    guard FileManager.default.fileExists(atPath: contents) else {
      let legacy = FileManager.default.fileExists(atPath: join(path, "elements"))
      return (
        nil,
        [
          .error(
            "missing-contents",
            legacy
              ? "'\(path)' is in the binary format of Xcode 3 (an 'elements' file, no 'contents')"
              : "'\(path)' has no 'contents' file",
            at: nil,
            fix: legacy
              ? "open the model in a current Xcode and save it, which writes the XML 'contents' file"
              : "a .xcdatamodel directory holds one XML file named 'contents'")
        ]
      )
    }
    return readVersion(contentsPath: contents, name: name)
  }

  /// Reads a versioned bundle; with `validate`, also validates each version, returning those
  /// diagnostics apart so that they follow every reader diagnostic, as for other layouts.
  private static func readVersionedBundle(_ path: String, validate: Bool) -> (
    ModelBundle?, [Diagnostic], validation: [Diagnostic]
  ) {
    var diagnostics: [Diagnostic] = []
    let url = URL(fileURLWithPath: path)
    let bundleName = url.deletingPathExtension().lastPathComponent
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let versionDirectories = entries.filter { $0.hasSuffix(".xcdatamodel") }
    guard !versionDirectories.isEmpty else {
      return (
        nil,
        [
          .error(
            "no-versions", "'\(path)' holds no .xcdatamodel version", at: nil,
            fix: "a .xcdatamodeld bundle holds one Name.xcdatamodel directory per version")
        ],
        []
      )
    }
    let names = versionDirectories.map { String($0.dropLast(".xcdatamodel".count)) }
    var ordered = VersionOrdering.sorted(names, bundleName: bundleName)
    var orderSource = ModelBundle.VersionOrderSource.natural
    let orderFile = join(path, versionOrderFileName)
    if let data = FileManager.default.contents(atPath: orderFile) {
      let (listed, orderDiagnostics) = readOrderFile(data, path: orderFile, versions: Set(names))
      diagnostics += orderDiagnostics
      if let listed {
        ordered = listed
        orderSource = .orderFile
      }
    }
    var versions: [ModelVersion] = []
    var validation: [Diagnostic] = []
    var failed = false
    let results = readVersions(ordered.map { (join(path, $0 + ".xcdatamodel"), $0) }, validate: validate)
    for result in results {
      diagnostics += result.diagnostics
      validation += result.validation
      if let version = result.version { versions.append(version) } else { failed = true }
    }
    let (currentName, currentDiagnostics) = currentVersionName(bundle: path, ordered: ordered)
    diagnostics += currentDiagnostics
    guard !failed, !versions.isEmpty else { return (nil, diagnostics, []) }
    let currentIndex = versions.firstIndex { $0.name == currentName } ?? versions.count - 1
    if currentIndex < versions.count - 1 && orderSource == .natural {
      let later = versions[(currentIndex + 1)...].map { "'\($0.name)'" }.joined(separator: ", ")
      diagnostics.append(
        .warning(
          "current-version-not-last",
          "the current version '\(versions[currentIndex].name)' is not the last in migration order: \(later) come\(versions.count - currentIndex - 1 == 1 ? "s" : "") after it by name",
          at: nil,
          fix:
            "if those versions are older, list every version oldest first in \(bundleName).xcdatamodeld/\(versionOrderFileName)"
        ))
    }
    return (
      ModelBundle(
        name: bundleName, versions: versions, currentVersionIndex: currentIndex, path: path,
        versionOrderSource: orderSource),
      diagnostics, validation
    )
  }

  /// One version read (and validated) on its own.
  private struct VersionResult: Sendable {
    var version: ModelVersion?
    var diagnostics: [Diagnostic]
    var validation: [Diagnostic]
  }

  /// Reads version directories, validating each when asked. Versions are independent, so they
  /// are read on all cores; the results come back in the order of `directories`.
  private static func readVersions(_ directories: [(path: String, name: String)], validate: Bool) -> [VersionResult] {
    let results = ResultSlots<VersionResult>(count: directories.count)
    DispatchQueue.concurrentPerform(iterations: directories.count) { index in
      let (version, diagnostics) = readVersionDirectory(directories[index].path, name: directories[index].name)
      let validation = validate ? version.map(ModelValidator.validate) ?? [] : []
      results[index] = VersionResult(version: version, diagnostics: diagnostics, validation: validation)
    }
    return results.values
  }

  private static func readOrderFile(_ data: Data, path: String, versions: Set<String>) -> ([String]?, [Diagnostic]) {
    var listed: [String] = []
    var diagnostics: [Diagnostic] = []
    let text = String(decoding: data, as: UTF8.self)
    // Split on every line ending: "\r\n" is one Character, so splitting on "\n" would miss it.
    for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
      var line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
      if line.isEmpty || line.hasPrefix("#") { continue }
      if line.hasSuffix(".xcdatamodel") { line = String(line.dropLast(".xcdatamodel".count)) }
      let location = SourceLocation(file: path, line: number + 1, column: 1)
      if !versions.contains(line) {
        diagnostics.append(
          .error(
            "unknown-version-in-order", "'\(line)' is not a version of this bundle", at: location,
            fix: "list only the bundle's versions: \(versions.sorted().joined(separator: ", "))"))
      } else if listed.contains(line) {
        diagnostics.append(
          .error("duplicate-version-in-order", "'\(line)' is listed twice", at: location, fix: "list each version once")
        )
      } else {
        listed.append(line)
      }
    }
    let missing = versions.subtracting(listed)
    if !missing.isEmpty {
      diagnostics.append(
        .error(
          "incomplete-version-order", "the version order does not list \(missing.sorted().joined(separator: ", "))",
          at: SourceLocation(file: path, line: 1, column: 1), fix: "list every version of the bundle, oldest first"))
    }
    return (diagnostics.isEmpty ? listed : nil, diagnostics)
  }

  private static func currentVersionName(bundle: String, ordered: [String]) -> (String?, [Diagnostic]) {
    let file = join(bundle, ".xccurrentversion")
    let bundleName = URL(fileURLWithPath: bundle).lastPathComponent
    let fallback = ordered.last
    guard let data = FileManager.default.contents(atPath: file) else {
      // With a single version there is nothing to choose between.
      if ordered.count == 1 { return (fallback, []) }
      return (
        fallback,
        [
          .warning(
            "no-current-version",
            "'\(bundleName)' has no .xccurrentversion; '\(fallback ?? "")' (the last version in order) is taken as current",
            at: nil, fix: "set the current model version in Xcode's File inspector, which writes .xccurrentversion")
        ]
      )
    }
    let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    guard let dictionary = plist as? [String: Any] else {
      return (
        fallback,
        [
          .warning(
            "unreadable-current-version",
            "'\(file)' is not a property list; '\(fallback ?? "")' (the last version in order) is taken as current",
            at: SourceLocation(file: file, line: 1, column: 1),
            fix: "set the current model version in Xcode's File inspector, which rewrites the file")
        ]
      )
    }
    guard let value = dictionary["_XCCurrentVersionName"] as? String else {
      return (
        fallback,
        [
          .warning(
            "no-current-version",
            "'\(file)' names no current version (_XCCurrentVersionName); '\(fallback ?? "")' (the last version in order) is taken as current",
            at: SourceLocation(file: file, line: 1, column: 1),
            fix: "set the current model version in Xcode's File inspector")
        ]
      )
    }
    let name = value.hasSuffix(".xcdatamodel") ? String(value.dropLast(".xcdatamodel".count)) : value
    guard ordered.contains(name) else {
      return (
        fallback,
        [
          .error(
            "unknown-current-version",
            "'.xccurrentversion' names '\(value)', which is not a version of this bundle",
            at: SourceLocation(file: file, line: 1, column: 1),
            fix: "choose one of: \(ordered.joined(separator: ", "))")
        ]
      )
    }
    return (name, [])
  }
}

extension ModelBundle {
  /// Reads and validates a model, throwing every diagnostic when there is any error.
  ///
  /// Warnings do not fail; use ``ModelReader/read(path:validate:)`` to see them. The path is an
  /// `.xcdatamodeld` bundle, one `.xcdatamodel` directory, or its `contents` file.
  ///
  /// ```swift
  /// do {
  ///   let bundle = try ModelBundle(contentsOf: "Models/Tasks.xcdatamodeld")
  ///   print(bundle.currentVersion.name, bundle.versions.map(\.name))
  /// } catch {
  ///   for diagnostic in error.diagnostics { print(diagnostic) }  // file:line:col: error: …
  /// }
  /// ```
  ///
  /// - Throws: ``ModelError`` (typed) holding every error ``Diagnostic`` (with the file, line
  ///   and column where there is one, and a fix): no model at the path, an unreadable or missing
  ///   `contents`, a bundle without versions, XML that is not well formed, a `.xccurrentversion`
  ///   naming no version, and every rule of
  ///   ``ModelValidator`` the model breaks (duplicate names, a relationship without its
  ///   destination or inverse, an invalid default value, …).
  public init(contentsOf path: String) throws(ModelError) {
    let result = ModelReader.read(path: path)
    guard let bundle = result.bundle, !result.diagnostics.containsErrors else {
      throw ModelError(diagnostics: result.diagnostics.errors.isEmpty ? result.diagnostics : result.diagnostics.errors)
    }
    self = bundle
  }
}

/// Slots filled from several threads, each slot once, read when all are done: how work spread
/// with `DispatchQueue.concurrentPerform` hands back its results in order (reading a bundle's
/// versions, checking several models).
package final class ResultSlots<Value: Sendable>: @unchecked Sendable {
  private var slots: [Value?]
  private let lock = NSLock()

  package init(count: Int) {
    slots = Array(repeating: nil, count: count)
  }

  package subscript(index: Int) -> Value? {
    get { lock.withLock { slots[index] } }
    set { lock.withLock { slots[index] = newValue } }
  }

  /// Every slot's value; all must be filled.
  package var values: [Value] { lock.withLock { slots.map { $0! } } }
}
