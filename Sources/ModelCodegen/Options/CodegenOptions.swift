import Foundation

/// What `modelc generate` generates, and how.
public struct CodegenOptions: Sendable, Hashable {
  /// The access level of the generated declarations.
  public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
    /// Visible in the module that holds the generated code (Swift's default).
    case `internal`
    /// Visible to modules that import it: for a library of entities, like TaskKit.
    case `public`
  }

  /// What is generated for an entity, as Xcode's "Codegen" setting says.
  public enum Mode: String, Sendable, Hashable, CaseIterable {
    /// The class and its properties (`class`, Xcode's "Class Definition").
    case `class`
    /// Only an extension with the properties; the app writes the class (`category`, Xcode's
    /// "Category/Extension").
    case category
  }

  /// How the generated files are laid out.
  public enum FileLayout: String, Sendable, Hashable, CaseIterable {
    /// One file per entity, `<Class>+Entity.swift`, and the schema file.
    case filePerEntity
    /// Every entity in one file, `<Model>+Entities.swift`, and the schema file: names that do
    /// not depend on the entities, which is what a build plugin needs to declare its outputs.
    case singleFile
  }

  /// A file embedded in the schema file: its name and bytes.
  public struct EmbeddedFile: Sendable, Hashable {
    /// The file's name, without extension.
    public var name: String
    /// Its bytes.
    public var bytes: Data

    public init(name: String, bytes: Data) {
      self.name = name
      self.bytes = bytes
    }
  }

  /// The version to generate classes for; the bundle's current version when nil.
  public var versionName: String?
  /// The access level of the generated declarations.
  public var accessLevel: AccessLevel
  /// When set, what every entity gets, whatever its own code generation setting (absent
  /// included): for a model whose classes were written by hand for Core Data.
  public var modeOverride: Mode?
  /// Names chosen by the user: `Entity` → class name, `Entity.property` → property name.
  public var renames: [String: String]
  /// How the files are laid out.
  public var fileLayout: FileLayout
  /// Mapping model files to embed in the schema file, by name (file name without extension)
  /// with their bytes (`xcmapping.xml` or a compiled `.cdm`), so that a program migrates its
  /// stores through them without the files. The caller chooses them (`modelc generate
  /// --mappings` embeds those that match the model's versions).
  public var embeddedMappings: [EmbeddedFile]

  public init(
    versionName: String? = nil, accessLevel: AccessLevel = .internal, modeOverride: Mode? = nil,
    renames: [String: String] = [:], fileLayout: FileLayout = .filePerEntity,
    embeddedMappings: [EmbeddedFile] = []
  ) {
    self.versionName = versionName
    self.accessLevel = accessLevel
    self.modeOverride = modeOverride
    self.renames = renames
    self.fileLayout = fileLayout
    self.embeddedMappings = embeddedMappings
  }
}
