import Foundation

/// The accessors generated entity code calls: typed reads and writes of attribute slots and
/// inverse-aware edits of relationships.
///
/// Generated code passes each property's name with the slot the generator computed from the
/// model (the property's index in ``ObjectLayout/attributes`` or
/// ``ObjectLayout/relationships``). The slot is checked against the name, so the fast path
/// costs one comparison; when the object's layout differs (a sub-entity sharing the class, a
/// container opened at another model version), the slot is looked up by name. A name the
/// entity does not have at all traps: the class was generated from another model.
///
/// These are static functions rather than members of ``ManagedObject`` so that they cannot
/// clash with the names of a model's properties. The attribute accessors are inlinable, so that
/// each generated property's call is specialized for its Swift type in the module of the
/// generated code: unspecialized, every read went through the protocol's witness table and a
/// boxed optional, half again the cost of reading the slot.
public enum EntityAccess {
  // MARK: - Attributes

  /// The value of an optional attribute; nil when nothing (or a value of an unrelated kind)
  /// is stored.
  @inlinable @inline(__always)
  public static func optionalValue<Value: AttributeValueRepresentable>(
    _ object: ManagedObject, _ name: String, slot: Int
  ) -> Value? {
    // Inlined into each generated property, specialized for its type: the slot check and the
    // read (`attributeValue(at:)`, inlinable), with no call on the path of a loaded object.
    object.attributeValue(at: attributeSlot(object, name, slot)).flatMap { Value(attributeValue: $0) }
  }

  /// The value of a required attribute; ``AttributeValueRepresentable/zeroValue`` when
  /// nothing usable is stored.
  @inlinable @inline(__always)
  public static func value<Value: AttributeValueRepresentable>(_ object: ManagedObject, _ name: String, slot: Int)
    -> Value
  {
    optionalValue(object, name, slot: slot) ?? Value.zeroValue
  }

  /// Stores a value (nil clears the attribute).
  @inlinable
  public static func setValue<Value: AttributeValueRepresentable>(
    _ value: Value?, _ object: ManagedObject, _ name: String, slot: Int
  ) {
    store(value?.attributeValue, object, name, slot: slot)
  }

  /// The stored value as it is, for attributes without a Swift type (`Undefined`, `ObjectID`,
  /// `Composite`).
  @inlinable
  public static func rawValue(_ object: ManagedObject, _ name: String, slot: Int) -> AttributeValue? {
    storedValue(object, name, slot: slot)
  }

  /// Stores a value as it is.
  @inlinable
  public static func setRawValue(_ value: AttributeValue?, _ object: ManagedObject, _ name: String, slot: Int) {
    store(value, object, name, slot: slot)
  }

  /// The value of a Transformable attribute, decoded by a transformer; nil when nothing is
  /// stored or the bytes do not decode.
  public static func transformedValue<Transformer: AttributeTransformer>(
    _ object: ManagedObject, _ name: String, slot: Int, using transformer: Transformer.Type
  ) -> Transformer.Value? {
    guard case .binary(let data) = rawValue(object, name, slot: slot) else { return nil }
    return try? Transformer.decode(data)
  }

  /// Stores the value of a Transformable attribute, encoded by a transformer.
  public static func setTransformedValue<Transformer: AttributeTransformer>(
    _ value: Transformer.Value?, _ object: ManagedObject, _ name: String, slot: Int,
    using transformer: Transformer.Type
  ) {
    let data = value.map { value in
      orTrap({ try Transformer.encode(value) }, "cannot encode attribute '\(name)' with \(Transformer.self)")
    }
    setRawValue(data.map { .binary($0) }, object, name, slot: slot)
  }

  /// The value of a Transformable attribute of a standard Codable type, stored as JSON; nil
  /// when nothing is stored or the bytes are not such JSON.
  public static func codableValue<Value: Codable>(
    _ object: ManagedObject, _ name: String, slot: Int, as type: Value.Type
  ) -> Value? {
    guard case .binary(let data) = rawValue(object, name, slot: slot) else { return nil }
    return try? CodableAttributeCoding.decode(type, from: data)
  }

  /// Stores the value of a Transformable attribute of a standard Codable type as JSON.
  public static func setCodableValue<Value: Codable>(
    _ value: Value?, _ object: ManagedObject, _ name: String, slot: Int
  ) {
    let data = value.map { value in
      orTrap({ try CodableAttributeCoding.encode(value) }, "cannot encode attribute '\(name)' as JSON")
    }
    setRawValue(data.map { .binary($0) }, object, name, slot: slot)
  }

  // MARK: - Relationships

  /// The destination of a to-one relationship.
  public static func destination<Destination: ManagedObject>(_ object: ManagedObject, _ name: String, slot: Int)
    -> Destination?
  {
    let slot = relationshipSlot(object, name, slot)
    return object.context?.toOneDestination(of: object, slot: slot).map { typed($0, name) }
  }

  /// Sets the destination of a to-one relationship, keeping the inverse in step. Traps when
  /// the destination belongs to another context, as Core Data does.
  public static func setDestination(_ destination: ManagedObject?, _ object: ManagedObject, _ name: String, slot: Int) {
    let slot = relationshipSlot(object, name, slot)
    orTrap({ () throws(ObjectAccessError) in try object.checkDestination(destination, slot: slot) })
    object.context?.setToOne(of: object, slot: slot, to: destination)
  }

  /// The destinations of a to-many relationship, in order for an ordered one.
  public static func destinations<Destination: ManagedObject>(_ object: ManagedObject, _ name: String, slot: Int)
    -> [Destination]
  {
    let slot = relationshipSlot(object, name, slot)
    return (object.context?.toManyDestinations(of: object, slot: slot) ?? []).map { typed($0, name) }
  }

  /// Replaces the destinations of a to-many relationship, keeping inverses in step.
  public static func setDestinations(
    _ destinations: some Sequence<some ManagedObject>, _ object: ManagedObject, _ name: String, slot: Int
  ) {
    let slot = relationshipSlot(object, name, slot)
    let destinations: [ManagedObject] = destinations.map { $0 }
    for destination in destinations {
      orTrap({ () throws(ObjectAccessError) in try object.checkDestination(destination, slot: slot) })
    }
    object.context?.setToMany(of: object, slot: slot, to: destinations)
  }

  /// Adds a destination to a to-many relationship (at `index` for an ordered one), keeping the
  /// inverse in step.
  public static func add(
    _ destination: ManagedObject, to object: ManagedObject, _ name: String, slot: Int, at index: Int? = nil
  ) {
    let slot = relationshipSlot(object, name, slot)
    orTrap({ () throws(ObjectAccessError) in try object.checkDestination(destination, slot: slot) })
    object.context?.addToMany(of: object, slot: slot, object: destination, at: index)
  }

  /// Removes a destination from a to-many relationship, keeping the inverse in step.
  public static func remove(_ destination: ManagedObject, from object: ManagedObject, _ name: String, slot: Int) {
    let slot = relationshipSlot(object, name, slot)
    object.context?.removeFromToMany(of: object, slot: slot, object: destination)
  }

  // MARK: - Slots

  /// The value of the attribute `name` (checked against `slot`), read in one call: the raw,
  /// transformed and Codable reads' path (the typed reads inline theirs, in `optionalValue`).
  @usableFromInline
  static func storedValue(_ object: ManagedObject, _ name: String, slot: Int) -> AttributeValue? {
    object.attributeValue(at: attributeSlot(object, name, slot))
  }

  /// Stores `value` in the attribute `name` (checked against `slot`), in one call.
  @usableFromInline
  static func store(_ value: AttributeValue?, _ object: ManagedObject, _ name: String, slot: Int) {
    object.setAttributeValue(value, at: attributeSlot(object, name, slot))
  }

  @inlinable @inline(__always)
  static func attributeSlot(_ object: ManagedObject, _ name: String, _ slot: Int) -> Int {
    // The layout borrowed, not retained: this runs on every read of a generated property.
    let matches = object.unmanagedLayout._withUnsafeGuaranteedRef { layout in
      let names = layout.attributeNames
      return slot >= 0 && slot < names.count && names[slot] == name
    }
    return matches ? slot : otherAttributeSlot(object, name)
  }

  /// The slot of an attribute whose generated slot is not the layout's (see `slowSlot`).
  @usableFromInline
  static func otherAttributeSlot(_ object: ManagedObject, _ name: String) -> Int {
    let layout = object.layout
    return slowSlot(of: layout, kind: "attribute", name: name, type(of: object), slots: layout.attributeSlots)
  }

  static func relationshipSlot(_ object: ManagedObject, _ name: String, _ slot: Int) -> Int {
    // The layout borrowed, not retained: this runs on every read of a generated property.
    object.unmanagedLayout._withUnsafeGuaranteedRef { layout in
      let names = layout.relationshipNames
      if slot < names.count && names[slot] == name { return slot }
      return slowSlot(of: layout, kind: "relationship", name: name, type(of: object), slots: layout.relationshipSlots)
    }
  }

  /// The slot of a property whose generated slot is not the layout's: the class was generated
  /// from another version whose properties are in other slots (found by name), or from another
  /// model (a programming error).
  private static func slowSlot(
    of layout: ObjectLayout, kind: String, name: String, _ objectClass: ManagedObject.Type, slots: [String: Int]
  ) -> Int {
    guard let found = slots[name] else {
      preconditionFailure(
        "entity '\(layout.name)' has no \(kind) '\(name)': \(objectClass) was generated from another model")
    }
    return found
  }

  private static func typed<Destination: ManagedObject>(_ object: ManagedObject, _ name: String) -> Destination {
    guard let typed = object as? Destination else {
      preconditionFailure(
        "relationship '\(name)' holds a \(type(of: object)) of entity '\(object.entityName)', not a \(Destination.self): "
          + "open the container with the generated classes (the generated model's makeContainer, or classes:)")
    }
    return typed
  }

  private static func orTrap<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result, _ message: @autoclosure () -> String = ""
  ) -> Result {
    do {
      return try body()
    } catch {
      let prefix = message()
      preconditionFailure(prefix.isEmpty ? "\(error)" : "\(prefix): \(error)")
    }
  }
}
