// `Migration` is the migration code: mapping models, lightweight inference, planning, the SQL
// that moves a store between layouts, `StoreMigration`, and the store migrator a container uses
// to migrate an older store on open (`Persistence` keeps only the `StoreMigrator` hook).
//
// It is also the umbrella product for programs that open and migrate stores: `import Migration`
// brings the model types and the runtime with it, so code written against the migration API
// (a policy, a migrating container) needs one import.
@_exported import DataModel
@_exported import Persistence
