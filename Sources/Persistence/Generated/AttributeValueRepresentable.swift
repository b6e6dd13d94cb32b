/// A Swift type that generated entity code reads from and writes to an attribute slot: the
/// standard library's and Foundation's counterparts of the model's attribute types.
///
/// Reading is lenient where no information is lost in practice (an `Integer 16` column that
/// holds `1` read as `Bool`, a `Float` read as `Double`); a stored value of an unrelated kind
/// reads as nil. Integers read into a narrower type are clamped to its range.
public protocol AttributeValueRepresentable {
  /// The value a stored attribute value stands for, or nil when it is of an unrelated kind.
  init?(attributeValue: AttributeValue)

  /// The attribute value to store.
  var attributeValue: AttributeValue { get }

  /// What a non-optional property returns when the object holds no value: 0, `false`, the
  /// empty string or data, the reference date (2001-01-01 00:00:00 UTC), the all-zero UUID,
  /// `about:blank`.
  ///
  /// A required attribute normally always has a value; it can lack one in a row written
  /// without it (by Core Data before a migration, or by hand), before the object is first
  /// given one, or when the stored value is of an unrelated kind. Reading never traps.
  static var zeroValue: Self { get }
}
