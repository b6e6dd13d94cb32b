/// A value while a predicate is evaluated: a scalar, an object, or a collection of either.
///
/// Unlike ``PredicateRuntimeValue`` a collection may mix objects and `nil`s (a to-one key read
/// through a to-many relationship yields `nil` for elements without a destination), and an
/// array constant is always a collection, never a scalar.
enum PredicateOperand {
  /// A scalar value; never an ``PredicateValue/array(_:)`` (arrays become collections).
  case scalar(PredicateValue)
  /// An object.
  case object(any PredicateEvaluable)
  /// A collection of values.
  case collection([PredicateOperand])

  /// `nil`.
  static var null: PredicateOperand { .scalar(.null) }

  /// The operand for a constant, turning arrays into collections.
  init(_ value: PredicateValue) {
    if case .array(let values) = value {
      self = .collection(values.map(PredicateOperand.init))
    } else {
      self = .scalar(value)
    }
  }

  /// The operand for a value an object answered.
  init(_ value: PredicateRuntimeValue) {
    switch value {
    case .scalar(let scalar): self.init(scalar)
    case .object(let object): self = .object(object)
    case .objects(let objects): self = .collection(objects.map(PredicateOperand.object))
    case .scalars(let scalars): self = .collection(scalars.map(PredicateOperand.init))
    }
  }

  /// Whether the operand is `nil`.
  var isNull: Bool {
    if case .scalar(.null) = self { return true }
    return false
  }

  /// The elements a modifier (`ANY`, `ALL`, `NONE`) ranges over: a collection's elements, no
  /// element for `nil`, the value itself for anything else.
  var quantifiedElements: [PredicateOperand] {
    switch self {
    case .collection(let elements): elements
    case .scalar(.null): []
    default: [self]
    }
  }

  /// The operand as a public runtime value. A collection of objects (ignoring `nil`s) becomes
  /// ``PredicateRuntimeValue/objects(_:)``; any other collection becomes
  /// ``PredicateRuntimeValue/scalars(_:)`` (objects inside it become their identity or `nil`).
  var runtimeValue: PredicateRuntimeValue {
    switch self {
    case .scalar(let value): return .scalar(value)
    case .object(let object): return .object(object)
    case .collection(let elements):
      var objects: [any PredicateEvaluable] = []
      var onlyObjects = true
      for element in elements {
        switch element {
        case .object(let object): objects.append(object)
        case .scalar(.null): continue
        default: onlyObjects = false
        }
      }
      if onlyObjects && !objects.isEmpty { return .objects(objects) }
      return .scalars(elements.map(\.scalarValue))
    }
  }

  /// The operand as a scalar: objects become their identity (or `nil`), collections arrays.
  var scalarValue: PredicateValue {
    switch self {
    case .scalar(let value): value
    case .object(let object): object.predicateIdentity ?? .null
    case .collection(let elements): .array(elements.map(\.scalarValue))
    }
  }
}
