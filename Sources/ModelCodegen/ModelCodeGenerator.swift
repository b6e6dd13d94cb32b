import DataModel
import Foundation

/// Generates Swift from a validated model: typed entity classes (or extensions, for `category`
/// entities) for one version, and a file embedding the schema of every version.
///
/// The output depends only on the model and the options: the same model gives byte-identical
/// files. Generated code imports only `Persistence` (and `Foundation` when it uses its types),
/// qualifies every type it uses (`Swift.String`, `Foundation.Date`), so that entity classes may
/// take any name, and compiles under Swift 6 strict concurrency without warnings.
public enum ModelCodeGenerator {
  /// The name of the schema file of a model.
  public static func schemaFileName(modelName: String) -> String { "\(modelName)+Schema.swift" }

  /// The name of the file of every entity, in the single-file layout.
  public static func entitiesFileName(modelName: String) -> String { "\(modelName)+Entities.swift" }

  /// The name of an entity's file, in the file-per-entity layout.
  public static func entityFileName(className: String) -> String { "\(className)+Entity.swift" }

  /// Generates the files for a bundle. The `contents` XML of each version is read from its
  /// `ModelVersion.sourcePath` unless given, in the bundle's version order.
  ///
  /// ```swift
  /// let bundle = try ModelBundle(contentsOf: "Models/Tasks.xcdatamodeld")
  /// let code = try ModelCodeGenerator.generate(
  ///   bundle, options: CodegenOptions(accessLevel: .public, fileLayout: .singleFile))
  /// let report = try GeneratedFileWriter.write(code, to: URL(fileURLWithPath: "Sources/App/Model"))
  /// print("wrote \(report.written.count), \(report.unchanged.count) unchanged")
  /// ```
  ///
  /// - Throws: ``CodegenError`` (typed) with a note on the fix: `options.versionName` names no
  ///   version of the bundle; `versionContents` does not give one text per version, or a
  ///   version's `contents` file cannot be read; a rename (``CodegenOptions/renames``) names an
  ///   entity or property the version lacks, or does not give a Swift identifier.
  public static func generate(
    _ bundle: ModelBundle, options: CodegenOptions = CodegenOptions(), versionContents: [String]? = nil
  ) throws(CodegenError) -> GeneratedCode {
    let version: ModelVersion
    if let name = options.versionName {
      guard let named = bundle.version(named: name) else {
        throw CodegenError(
          "the model has no version '\(name)'",
          notes: ["its versions are: \(bundle.versions.map(\.name).joined(separator: ", "))"])
      }
      version = named
    } else {
      version = bundle.currentVersion
    }
    let contents: [String]
    if let versionContents {
      contents = versionContents
    } else {
      contents = try readContents(of: bundle)
    }
    guard contents.count == bundle.versions.count else {
      throw CodegenError("\(contents.count) contents given for the \(bundle.versions.count) versions of the model")
    }
    let plan = try ModelPlanner(model: version, bundleName: bundle.name, options: options).plan()

    var files: [GeneratedFile] = []
    switch options.fileLayout {
    case .filePerEntity:
      for entity in plan.entities {
        var printer = CodePrinter()
        EntityPrinter(plan: entity, accessLevel: options.accessLevel).print(into: &printer)
        let about =
          "The entity '\(entity.entityName)' of version '\(version.name)' (code generation: \(entity.mode.rawValue))."
        files.append(
          GeneratedFile(
            name: entityFileName(className: entity.fileStem),
            contents: FileHeader.header(modelName: bundle.name, about: about, body: printer.text) + "\n" + printer.text)
        )
      }
    case .singleFile:
      var printer = CodePrinter()
      for entity in plan.entities {
        printer.blankLine()
        printer.line("// MARK: - \(entity.entityName)")
        printer.blankLine()
        EntityPrinter(plan: entity, accessLevel: options.accessLevel).print(into: &printer)
      }
      let about = "The entities of version '\(version.name)' that have code generation."
      let header = FileHeader.header(modelName: bundle.name, about: about, body: printer.text)
      files.append(
        GeneratedFile(
          name: entitiesFileName(modelName: bundle.name),
          contents: printer.text.isEmpty ? header : header + "\n" + printer.text))
    }

    var printer = CodePrinter()
    SchemaPrinter(
      bundle: bundle, generatedVersion: version, typeName: plan.schemaTypeName,
      registeredClasses: plan.registeredClasses,
      accessLevel: options.accessLevel, contents: contents, mappings: options.embeddedMappings
    ).print(into: &printer)
    let about = "The schema of every version of the model, for opening and migrating stores without its files."
    files.append(
      GeneratedFile(
        name: schemaFileName(modelName: bundle.name),
        contents: FileHeader.header(modelName: bundle.name, about: about, body: "") + "\n" + printer.text))
    return GeneratedCode(
      modelName: bundle.name, versionName: version.name, files: files, diagnostics: plan.diagnostics)
  }

  private static func readContents(of bundle: ModelBundle) throws(CodegenError) -> [String] {
    var result: [String] = []
    for version in bundle.versions {
      guard let path = version.sourcePath, let data = FileManager.default.contents(atPath: path) else {
        throw CodegenError(
          "cannot read the contents of version '\(version.name)'\(version.sourcePath.map { " at '\($0)'" } ?? "")")
      }
      result.append(String(decoding: data, as: UTF8.self))
    }
    return result
  }
}
