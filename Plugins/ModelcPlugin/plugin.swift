import Foundation
import PackagePlugin

/// Generates typed entity classes for the data models a target declares, at build time.
///
/// A target declares its models by holding `.xcdatamodeld` bundles (or lone `.xcdatamodel`
/// directories) in its folder, or by listing them in a `modelc.json` next to its sources:
///
/// ```json
/// {"models": ["../../Models/Tasks.xcdatamodeld"], "accessLevel": "public"}
/// ```
///
/// Optional keys: `accessLevel` (`internal`, the default, or `public`), `codegen` (`class` or
/// `category`, for every entity), `version` (default: the current one), `renames`
/// (`{"Task": "TaskItem", "Task.id": "uuid"}`), `mappings` (folders of mapping models to embed
/// with the schema; default: the package's `Migrations/` when it exists). Paths are relative to
/// the file.
///
/// For each model the plugin runs `modelc generate --single-file`, which writes
/// `<Model>+Entities.swift` and `<Model>+Schema.swift` into the plugin's work directory. The
/// model's files (and `modelc.json`) are the command's inputs, so the build runs it again when
/// they change and not otherwise; and the generator leaves unchanged files untouched.
@main
struct ModelcPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    // `directoryURL` needs tools version 6.1; the package declares 6.0, whose `Path` accessors
    // are deprecated, so the path is read through its description.
    let directory = URL(fileURLWithPath: String(describing: target.directory))
    let configurationURL = directory.appending(path: "modelc.json")
    let configuration = try Configuration.read(configurationURL)
    var models = (configuration?.models ?? []).map {
      URL(fileURLWithPath: $0, relativeTo: directory).standardizedFileURL
    }
    for model in Self.modelsInside(directory) where !models.contains(model) {
      models.append(model)
    }
    // Mapping models embedded with the schema: `mappings` in modelc.json, else the package's
    // Migrations/ folder. `modelc generate` embeds those that match the model's versions.
    let packageDirectory = URL(fileURLWithPath: String(describing: context.package.directory))
    var mappingFolders = (configuration?.mappings ?? []).map {
      URL(fileURLWithPath: $0, relativeTo: directory).standardizedFileURL
    }
    let defaultFolder = packageDirectory.appending(path: "Migrations")
    if configuration?.mappings == nil, FileManager.default.fileExists(atPath: defaultFolder.path) {
      mappingFolders = [defaultFolder]
    }
    var mappingInputs: [URL] = []
    for folder in mappingFolders { mappingInputs += try Self.files(in: folder) }
    let tool = try context.tool(named: "modelc")
    return try models.map { model in
      let name = model.deletingPathExtension().lastPathComponent
      let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources").appending(path: name)
      var arguments = ["generate", model.path, "--output", output.path, "--single-file", "--quiet"]
      arguments += ["--access-level", configuration?.accessLevel ?? "internal"]
      if let codegen = configuration?.codegen { arguments += ["--codegen", codegen] }
      if let version = configuration?.version { arguments += ["--version", version] }
      for (key, value) in (configuration?.renames ?? [:]).sorted(by: { $0.key < $1.key }) {
        arguments += ["--rename", "\(key)=\(value)"]
      }
      for folder in mappingFolders { arguments += ["--mappings", folder.path] }
      var inputs = try Self.files(in: model) + mappingInputs
      if configuration != nil { inputs.append(configurationURL) }
      return .buildCommand(
        displayName: "Generating entity classes from \(model.lastPathComponent)",
        executable: tool.url,
        arguments: arguments,
        inputFiles: inputs,
        outputFiles: [
          output.appending(path: "\(name)+Entities.swift"),
          output.appending(path: "\(name)+Schema.swift"),
        ])
    }
  }

  /// The `.xcdatamodeld` bundles and lone `.xcdatamodel` directories in a target's folder.
  static func modelsInside(_ directory: URL) -> [URL] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
    else { return [] }
    var result: [URL] = []
    for case let url as URL in enumerator {
      switch url.pathExtension {
      case "xcdatamodeld":
        result.append(url.standardizedFileURL)
        enumerator.skipDescendants()
      case "xcdatamodel":
        result.append(url.standardizedFileURL)
        enumerator.skipDescendants()
      default:
        break
      }
    }
    return result.sorted { $0.path < $1.path }
  }

  /// Every file of a model: each version's `contents`, `.xccurrentversion`, `.modelc-versions`.
  static func files(in model: URL) throws -> [URL] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: model.path, isDirectory: &isDirectory) else {
      throw PluginError("no model at '\(model.path)' (listed in modelc.json)")
    }
    guard isDirectory.boolValue else { return [model] }
    guard let enumerator = FileManager.default.enumerator(at: model, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var result: [URL] = []
    for case let url as URL in enumerator
    where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
      result.append(url.standardizedFileURL)
    }
    return result.sorted { $0.path < $1.path }
  }
}

/// `modelc.json`: the models a target declares and how to generate their code.
struct Configuration: Decodable {
  var models: [String]?
  var accessLevel: String?
  var codegen: String?
  var version: String?
  var renames: [String: String]?
  /// Folders of mapping models to embed (default: the package's `Migrations/`, when present).
  var mappings: [String]?

  /// The configuration in `url`, nil when there is none.
  static func read(_ url: URL) throws -> Configuration? {
    guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
    do {
      return try JSONDecoder().decode(Configuration.self, from: data)
    } catch {
      throw PluginError("'\(url.path)' is not a valid modelc.json: \(error)")
    }
  }
}

/// A problem with what the target declares.
struct PluginError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
