import ArgumentParsing
import Foundation
import Migration

/// `modelc mapping new MODEL --from A --to B --output DIR/Name.xcmappingmodel`.
enum MappingNewCommand: ModelcCommand {
  static let spec = CommandSpec(
    "new", abstract: "Start a mapping model between two versions, filled in as Xcode's New Mapping Model is.",
    discussion: """
      Writes an .xcmappingmodel bundle that Xcode opens and compiles: one entity mapping per destination \
      entity (from the source entity it continues, by renaming identifier or name, or an add mapping), one \
      property mapping per destination property, renamed properties reading their old names, and both \
      versions embedded. Edit it in Xcode, or write expressions as text in xcmapping.xml's place with \
      `modelc mapping show` to check the result. An identical existing file is left untouched.
      Exit status: 0 written, 1 failure, 2 usage error.
      """,
    positionals: [.required("MODEL", help: "The .xcdatamodeld bundle.")],
    options: [
      OptionSpec("--from", value: "VERSION", required: true, help: "The source version."),
      OptionSpec("--to", value: "VERSION", required: true, help: "The destination version."),
      OptionSpec(
        "--output", value: "PATH", required: true, help: "The bundle to write, e.g. Migrations/V3ToV4.xcmappingmodel."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let modelPath = arguments.positionals[0]
    let bundle = try ModelLoading.load(modelPath, terminal: terminal)
    let source = try ModelLoading.version(arguments.value("--from"), in: bundle)
    let destination = try ModelLoading.version(arguments.value("--to"), in: bundle)
    var output = URL(fileURLWithPath: arguments.value("--output")!).standardizedFileURL
    if output.pathExtension != "xcmappingmodel" {
      throw UsageError(
        command: "modelc mapping new", message: "--output must name an .xcmappingmodel bundle, not '\(output.path)'")
    }
    if output.lastPathComponent.isEmpty { output = output.deletingLastPathComponent() }
    let name = output.deletingPathExtension().lastPathComponent
    let base = output.deletingLastPathComponent()
    let template = MappingTemplate.make(
      name: name, source: source, destination: destination,
      sourcePath: relativePath(of: source.sourcePath ?? "\(source.name).xcdatamodel", from: base),
      destinationPath: relativePath(of: destination.sourcePath ?? "\(destination.name).xcdatamodel", from: base))
    try XcodeMappingWriter.write(template, to: output)
    terminal.writeLine(
      "wrote \(output.path) (\(source.name) → \(destination.name), \(template.entityMappings.count) entity mapping\(template.entityMappings.count == 1 ? "" : "s"))"
    )
    return .success
  }

  /// `path` relative to the folder `base`, as Xcode records model paths in mapping models.
  static func relativePath(of path: String, from base: URL) -> String {
    var target = URL(fileURLWithPath: path).standardizedFileURL
    if target.lastPathComponent == "contents" { target.deleteLastPathComponent() }
    let targetParts = target.pathComponents
    let baseParts = base.standardizedFileURL.pathComponents
    var common = 0
    while common < min(targetParts.count, baseParts.count), targetParts[common] == baseParts[common] { common += 1 }
    let up = Array(repeating: "..", count: baseParts.count - common)
    return (up + targetParts[common...]).joined(separator: "/")
  }
}
