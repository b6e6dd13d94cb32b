import DataModel
import Foundation

/// Prints the schema file: the `contents` XML of every version of the bundle as string
/// literals, the bundle read from them, the generated classes, and a container that registers
/// them. An app then opens and migrates its store without the model's files at run time.
struct SchemaPrinter {
  let bundle: ModelBundle
  let generatedVersion: ModelVersion
  let typeName: String
  let registeredClasses: [String]
  let access: String
  /// The `contents` XML of each version, in the bundle's order.
  let contents: [String]
  /// Mapping model files to embed.
  let mappings: [CodegenOptions.EmbeddedFile]

  init(
    bundle: ModelBundle, generatedVersion: ModelVersion, typeName: String, registeredClasses: [String],
    accessLevel: CodegenOptions.AccessLevel, contents: [String], mappings: [CodegenOptions.EmbeddedFile] = []
  ) {
    self.mappings = mappings.sorted { $0.name < $1.name }
    self.bundle = bundle
    self.generatedVersion = generatedVersion
    self.typeName = typeName
    self.registeredClasses = registeredClasses
    self.access = accessLevel == .public ? "public " : ""
    self.contents = contents
  }

  /// Prints the schema type.
  func print(into printer: inout CodePrinter) {
    printer.documentation([
      "The model `\(bundle.name)`: the schema of each of its versions, embedded, and the classes generated for version `\(generatedVersion.name)`.",
      "`try \(typeName).makeContainer(options: .inMemory)` opens a store with every generated class registered; a store written at an older version migrates when the options carry a migrator.",
    ])
    printer.block("\(access)enum \(typeName)") { printer in
      printer.documentation(["The model's name."])
      printer.line("\(access)static let name: Swift.String = \(SwiftStringLiteral.quoted(bundle.name))")
      printer.blankLine()
      printer.documentation(["The version the classes were generated for."])
      printer.line(
        "\(access)static let generatedVersionName: Swift.String = \(SwiftStringLiteral.quoted(generatedVersion.name))")
      printer.blankLine()
      printer.documentation(["The bundle's current version."])
      printer.line(
        "\(access)static let currentVersionName: Swift.String = \(SwiftStringLiteral.quoted(bundle.currentVersion.name))"
      )
      printer.blankLine()
      printer.documentation(["The generated classes (and the classes the app writes for `category` entities)."])
      printer.block("\(access)static var entityClasses: [Persistence.ManagedObject.Type]") { printer in
        printer.line("[" + registeredClasses.map { "\($0).self" }.joined(separator: ", ") + "]")
      }
      printer.blankLine()
      printer.documentation(["The model, read from the embedded schemas once."])
      printer.block("\(access)static func bundle() throws(DataModel.ModelError) -> DataModel.ModelBundle") { printer in
        printer.line("try parsedBundle.get()")
      }
      printer.blankLine()
      printer.documentation([
        "Opens (or creates) a store at the generated version with `classes` registered: every generated class unless told otherwise."
      ])
      printer.block(
        "\(access)static func makeContainer(options: Persistence.StoreOptions, classes: [Persistence.ManagedObject.Type] = entityClasses) throws -> Persistence.PersistentContainer"
      ) { printer in
        printer.line(
          "try Persistence.PersistentContainer(bundle: bundle(), versionName: generatedVersionName, options: options, classes: classes)"
        )
      }
      printer.blankLine()
      printer.nested(
        "private static let parsedBundle = Swift.Result<DataModel.ModelBundle, DataModel.ModelError> { () throws(DataModel.ModelError) in",
        "}"
      ) { printer in
        printer.line(
          "try DataModel.ModelBundle(name: name, embeddedVersions: versions, currentVersionName: currentVersionName)")
      }
      printer.blankLine()
      printer.documentation(["The `contents` XML of every version, oldest first (the order migrations step through)."])
      printer.line("\(access)static let versions: [(name: Swift.String, contents: Swift.String)] = [")
      for (version, xml) in zip(bundle.versions, contents) {
        printer.line("  (")
        printer.line("    name: \(SwiftStringLiteral.quoted(version.name)),")
        printer.line("    contents:")
        printer.verbatim(SwiftStringLiteral.multilineRaw(xml))
        printer.line("  ),")
      }
      printer.line("]")
      guard !mappings.isEmpty else { return }
      printer.blankLine()
      printer.documentation([
        "The mapping models of the model's heavyweight steps, embedded: each file's name and its bytes (`xcmapping.xml` or a compiled `.cdm`) in base64.",
        "`MappingModel.embedded(mappingModelFiles, model: bundle())` (from the Migration module) reads them.",
      ])
      printer.line("\(access)static let mappingModelFiles: [(name: Swift.String, base64: Swift.String)] = [")
      for mapping in mappings {
        printer.line("  (")
        printer.line("    name: \(SwiftStringLiteral.quoted(mapping.name)),")
        printer.line("    base64:")
        printer.verbatim(SwiftStringLiteral.multilineRaw(Self.wrapped(mapping.bytes.base64EncodedString())))
        printer.line("  ),")
      }
      printer.line("]")
    }
  }

  /// Base64 text in lines of 100 characters (the reader skips the line breaks).
  static func wrapped(_ text: String) -> String {
    var lines: [Substring] = []
    var rest = Substring(text)
    while !rest.isEmpty {
      lines.append(rest.prefix(100))
      rest = rest.dropFirst(100)
    }
    return lines.joined(separator: "\n")
  }
}
