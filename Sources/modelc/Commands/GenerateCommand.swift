import ArgumentParsing
import Foundation
import Migration
import ModelCodegen

/// `modelc generate MODEL --output DIR`: typed Swift entity classes and the embedded schema.
enum GenerateCommand: ModelcCommand {
  static let spec = CommandSpec(
    "generate", abstract: "Generate typed Swift entity classes and the embedded schema from a model.",
    discussion: """
      Writes one file per entity that has code generation (class: the class and its properties; \
      category: only an extension, the app writes the class) and <Model>+Schema.swift, which embeds \
      every version so that an app opens and migrates its store without the model's files. Files whose \
      content did not change are not rewritten; files generated earlier for entities that no longer \
      exist are removed. Warnings (renamed or escaped names, untyped attributes) go to standard error. \
      Exit status 0 on success (warnings allowed), 1 when the model is invalid or a file cannot be written.
      """,
    positionals: [.required("MODEL", help: "A .xcdatamodeld bundle, a .xcdatamodel directory or a contents file.")],
    options: [
      OptionSpec("--output", short: "-o", value: "DIR", required: true, help: "The directory to write into."),
      OptionSpec("--version", value: "NAME", help: "Generate classes for this version (default: the current one)."),
      OptionSpec(
        "--access-level", value: "LEVEL", type: .choice(of: CodegenOptions.AccessLevel.self), default: "internal",
        help: "The access level of the generated declarations."),
      OptionSpec(
        "--codegen", value: "MODE", type: .choice(of: CodegenOptions.Mode.self),
        help: "Generate this for every entity, whatever the model says (default: each entity's own setting)."),
      OptionSpec(
        "--rename", value: "NAME=NEW",
        type: .custom(expected: "ENTITY=NAME or ENTITY.PROPERTY=NAME", isValid: isRename),
        repeatable: true, help: "Name an entity's class, or a property, differently (e.g. Task=TaskItem, Task.id=uuid)."
      ),
      OptionSpec(
        "--mappings", value: "DIR", repeatable: true,
        help:
          "Embed in the schema file the mapping models of this folder that match the model's versions, so the program migrates through them without the files."
      ),
    ],
    flags: [
      FlagSpec(
        "--single-file",
        help:
          "Write every entity into <Model>+Entities.swift, as the build plugin does (file names then do not depend on the model)."
      ),
      FlagSpec("--quiet", short: "-q", help: "Print warnings only, no summary."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let path = arguments.positionals[0]
    let bundle = try ModelLoading.load(path, terminal: terminal)
    var renames: [String: String] = [:]
    for rename in arguments.values("--rename") {
      let parts = rename.split(separator: "=", maxSplits: 1).map(String.init)
      renames[parts[0]] = parts[1]
    }
    var embedded: [CodegenOptions.EmbeddedFile] = []
    let folders = arguments.values("--mappings").map { URL(fileURLWithPath: $0) }
    if !folders.isEmpty {
      let catalog = MappingCatalog.discover(in: folders, bundle: bundle)
      if let problem = catalog.problems.first {
        throw CommandFailure("\(problem)")
      }
      for loaded in catalog.mappings {
        guard !loaded.isOrphaned else {
          // A mapping of another model (or made before an edit) is not embedded; say so.
          terminal.writeLine(
            "\(loaded.file.path): warning: not embedded: it matches no pair of versions of \(bundle.name)",
            to: .standardError)
          continue
        }
        let file = URL(fileURLWithPath: loaded.file.path)
        let name = (file.lastPathComponent == "xcmapping.xml" ? file.deletingLastPathComponent() : file)
          .deletingPathExtension().lastPathComponent
        embedded.append(CodegenOptions.EmbeddedFile(name: name, bytes: try Data(contentsOf: file)))
      }
    }
    let options = CodegenOptions(
      versionName: arguments.value("--version"),
      accessLevel: arguments.value("--access-level", as: CodegenOptions.AccessLevel.self) ?? .internal,
      modeOverride: arguments.value("--codegen", as: CodegenOptions.Mode.self), renames: renames,
      fileLayout: arguments.flag("--single-file") ? .singleFile : .filePerEntity, embeddedMappings: embedded)
    let output = URL(fileURLWithPath: arguments.value("--output")!)
    let code: GeneratedCode
    let report: GeneratedFileWriter.Report
    do {
      code = try ModelCodeGenerator.generate(bundle, options: options)
      report = try GeneratedFileWriter.write(code, to: output)
    } catch {
      throw CommandFailure(error.message, notes: error.notes)
    }
    for diagnostic in code.diagnostics {
      terminal.writeLine(diagnostic.description, to: .standardError)
    }
    if !arguments.flag("--quiet") {
      terminal.writeLine(
        "\(path): generated \(code.files.count) file\(code.files.count == 1 ? "" : "s") for version '\(code.versionName)' in \(output.path) (\(report.written.count) written, \(report.unchanged.count) unchanged, \(report.removed.count) removed)"
      )
    }
    return .success
  }

  private static func isRename(_ value: String) -> Bool {
    let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
  }
}
