/// An object's to-many values — as it has them and as last read or saved — and the destinations
/// a fetch prefetched for it, out of line: one reference in the object, nil while it has none.
///
/// Most objects a fetch makes never load a to-many relationship and are never prefetched into.
/// Three fields of their own (two slot arrays and an array of objects) made each object 16 bytes
/// larger and cost three releases when it was freed; this reference is nil for those objects,
/// so it costs neither. An object makes its own state the first time one of the three changes
/// (``ManagedObject/ownToManyState()``).
///
/// A state is either the object's own, changed in place, or shared: a layout's state for the
/// objects it inserts (``ObjectLayout/insertedToManyState``, every to-many relationship loaded
/// and empty), which is never changed, so that inserting an object allocates nothing for it.
/// An object copies a shared state before its first change, as copy on write does.
///
/// Sendable only so that a layout (which is) can hold its shared states: a shared state is
/// never changed once made, and an object's own state is reached only through that object,
/// which is not Sendable.
final class ToManyState: @unchecked Sendable {
  /// Whether many objects hold this state: it is never changed, and an object makes a copy of
  /// its own before changing it.
  let isShared: Bool
  /// To-many values by relationship slot; nil where the relationship is not loaded (and in
  /// to-one slots).
  var values: OptionalSlots<ToManyValue>
  /// The values as last read or saved.
  var committed: OptionalSlots<ToManyValue>
  /// Destinations loaded by a fetch's prefetching, kept alive as long as the object so that
  /// reaching them does not read the store again (the context forgets unreferenced objects).
  var prefetched: [ManagedObject]

  init(
    values: OptionalSlots<ToManyValue> = OptionalSlots(), committed: OptionalSlots<ToManyValue> = OptionalSlots(),
    prefetched: [ManagedObject] = [], isShared: Bool = false
  ) {
    self.values = values
    self.committed = committed
    self.prefetched = prefetched
    self.isShared = isShared
  }

  /// A state of an object's own with the same contents.
  func copy() -> ToManyState {
    ToManyState(values: values, committed: committed, prefetched: prefetched)
  }

  /// The shared state of a new object of a layout with these relationships: every to-many
  /// relationship loaded and empty, nothing committed; nil when there are no to-many ones.
  static func inserted(isToMany: [Bool]) -> ToManyState? {
    guard isToMany.contains(true) else { return nil }
    return ToManyState(values: OptionalSlots(isToMany.map { $0 ? ToManyValue() : nil }), isShared: true)
  }

  /// The shared state of such an object once saved: its empty values are also its committed
  /// ones.
  func savedCounterpart() -> ToManyState {
    ToManyState(values: values, committed: values, isShared: true)
  }
}

extension ManagedObject {
  /// To-many values by relationship slot (nil where not loaded).
  var toManyValues: OptionalSlots<ToManyValue> {
    get { toManyState?.values ?? OptionalSlots() }
    _modify { yield &ownToManyState().values }
  }

  /// To-many values as last read or saved.
  var committedToManyValues: OptionalSlots<ToManyValue> {
    get { toManyState?.committed ?? OptionalSlots() }
    _modify { yield &ownToManyState().committed }
  }

  /// Destinations kept alive for this object by a fetch's prefetching.
  var prefetched: [ManagedObject] {
    get { toManyState?.prefetched ?? [] }
    _modify { yield &ownToManyState().prefetched }
  }

  /// The object's own state, made (a copy of a shared one, or empty) when it has none.
  func ownToManyState() -> ToManyState {
    if let state = toManyState, !state.isShared { return state }
    let state = toManyState?.copy() ?? ToManyState()
    toManyState = state
    return state
  }

  /// Forgets the loaded to-many values (the next access reads the store again), keeping what
  /// was prefetched.
  func forgetToManyValues() {
    // Shared states prefetch nothing, so a state that did is the object's own: reset in place.
    guard let state = toManyState, !state.prefetched.isEmpty else {
      toManyState = nil
      return
    }
    state.values = OptionalSlots()
    state.committed = OptionalSlots()
  }

  /// Puts the to-many values back to the committed ones.
  func restoreCommittedToManyValues() {
    // A shared state is a new object's, which a rollback takes out of the context, or a saved
    // new object's, whose values are its committed ones.
    guard let state = toManyState, !state.isShared else { return }
    state.values = state.committed
  }

  /// Makes the to-many values the committed ones (after a save wrote them).
  func commitToManyValues() {
    guard let state = toManyState else { return }
    if state.isShared {
      // Unchanged since the insert: the layout's shared state for saved new objects.
      if state === layout.insertedToManyState { toManyState = layout.savedInsertedToManyState }
      return
    }
    state.committed = state.values
  }
}
