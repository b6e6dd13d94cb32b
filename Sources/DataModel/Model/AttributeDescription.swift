import Foundation

/// An attribute of an entity (`<attribute>`), with every setting the model file can hold.
///
/// Settings keep their XML text (`defaultValueString`, `minValueString`, …) next to the typed
/// value parsed from it, so a dump shows exactly what the file says and code can use the values.
public struct AttributeDescription: Sendable, Hashable, Codable {
  /// The attribute's name.
  public var name: String
  /// The type; `Undefined` when the file gives none (transient attributes).
  public var attributeType: AttributeType
  /// Whether nil is allowed (`optional="YES"`); absent means required.
  public var isOptional: Bool
  /// Whether the value lives only in memory and is never stored (`transient="YES"`).
  public var isTransient: Bool

  /// `defaultValueString` as written.
  public var defaultValueString: String?
  /// `defaultDateTimeInterval` as written (seconds since 2001-01-01 for Date defaults).
  public var defaultDateTimeInterval: String?
  /// The default value parsed for the attribute's type, when it parses.
  public var defaultValue: AttributeValue?

  /// `minValueString` as written: a minimum value, or a minimum length for strings.
  public var minValueString: String?
  /// `maxValueString` as written: a maximum value, or a maximum length for strings.
  public var maxValueString: String?
  /// `minDateTimeInterval` as written.
  public var minDateTimeInterval: String?
  /// `maxDateTimeInterval` as written.
  public var maxDateTimeInterval: String?
  /// The minimum parsed for the type (a length, as ``AttributeValue/integer(_:)``, for strings
  /// and binary data).
  public var minValue: AttributeValue?
  /// The maximum parsed for the type (a length for strings and binary data).
  public var maxValue: AttributeValue?
  /// `regularExpressionString`: a pattern string values must match as a whole.
  public var regularExpression: String?

  /// `usesScalarValueType`, when written (`YES`/`NO`); absent means `NO`.
  public var usesScalarValueType: Bool?
  /// Whether large binary values may be kept in files beside the store.
  public var allowsExternalBinaryDataStorage: Bool
  /// The value transformer of a Transformable attribute (`valueTransformerName`).
  public var valueTransformerName: String?
  /// The class of a Transformable attribute's values (`customClassName`).
  public var customClassName: String?
  /// Whether the value is derived from other values (`derived="YES"`).
  public var isDerived: Bool
  /// The derivation (`derivationExpression`), e.g. `canonical:(name)` or `items.@count`.
  public var derivationExpression: String?
  /// The composite type of a Composite attribute (`composite`).
  public var compositeName: String?
  /// Whether the value stays in persistent-history tombstones after deletion.
  public var preservesValueInHistoryOnDeletion: Bool
  /// Whether CloudKit stores the value encrypted.
  public var allowsCloudEncryption: Bool
  /// Whether Spotlight indexes the value.
  public var isIndexedBySpotlight: Bool
  /// The legacy single-property index flag (`indexed="YES"`).
  public var isIndexed: Bool
  /// The legacy Spotlight external-record flag.
  public var isStoredInExternalRecord: Bool
  /// The renaming identifier (`elementID`): the name this attribute had in an older version.
  public var renamingIdentifier: String?
  /// A string folded into the version hash to force a migration.
  public var versionHashModifier: String?
  /// The legacy `syncable` flag, when written.
  public var isSyncable: Bool?
  /// The attribute's userInfo.
  public var userInfo: UserInfo
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know. Unknown markup inside `<userInfo>` is
  /// kept under a copy of its container element (holding only what was not understood).
  public var unknownElements: [UnknownElement]
  /// Where the attribute is defined.
  public var location: SourceLocation?

  public init(
    name: String, attributeType: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.attributeType = attributeType
    self.isOptional = isOptional
    self.isTransient = isTransient
    self.allowsExternalBinaryDataStorage = false
    self.isDerived = false
    self.preservesValueInHistoryOnDeletion = false
    self.allowsCloudEncryption = false
    self.isIndexedBySpotlight = false
    self.isIndexed = false
    self.isStoredInExternalRecord = false
    self.userInfo = UserInfo()
    self.unknownAttributes = []
    self.unknownElements = []
    self.location = location
  }

  /// The name that identifies this attribute across versions: the renaming identifier when set,
  /// else the name.
  public var versionIdentity: String { renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? name }

  /// Whether the attribute has a column in a store (neither transient nor of an unstorable type).
  /// Derived attributes are stored too: Core Data keeps their columns up to date itself.
  public var isPersistent: Bool { !isTransient && attributeType.isStorable }
}
