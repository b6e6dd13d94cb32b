// The migration engine (mapping models, lightweight inference, planning, the SQL that moves a
// store between layouts, and `StoreMigration`) lives in Persistence, beside the container: a
// container opened on an older store migrates it by default, and generated entity code imports
// only Persistence, so the engine must be reachable from there. This module remains the
// documented entry point for code that works on migrations explicitly (`import Migration`).
@_exported import DataModel
@_exported import Persistence
