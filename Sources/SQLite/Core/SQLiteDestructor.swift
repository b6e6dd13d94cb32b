import CSQLite

/// SQLite's `SQLITE_TRANSIENT` destructor: "copy the bytes before this call returns".
///
/// The C macro is a cast of `-1` to a function pointer, which Swift cannot import. Every text
/// and blob handed to SQLite by this layer uses it, so no Swift buffer ever has to outlive the
/// call that passed it.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
