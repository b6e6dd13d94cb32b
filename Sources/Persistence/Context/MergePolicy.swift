/// What a save does when another context or process changed or deleted a row since this
/// context read it (optimistic locking through each row's `Z_OPT` version).
public enum MergePolicy: Sendable, Hashable {
  /// Fail the save with ``SaveError/conflicts(_:)`` and change nothing (the default, as Core
  /// Data's `NSErrorMergePolicy`).
  case error
  /// Keep what is in the store: the conflicting objects' pending changes are discarded and
  /// their values refreshed from the store; the rest of the save goes ahead.
  case storeWins
  /// Keep what this context has: its values overwrite the store's changes (a row deleted by
  /// someone else stays deleted, and the object is reported in the notification as deleted).
  case contextWins
}
