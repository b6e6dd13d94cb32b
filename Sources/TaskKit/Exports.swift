// TaskKit works only through the runtime and the entity code generated from
// Models/Tasks.xcdatamodeld by the ModelcPlugin (see modelc.json): no SQL here.
@_exported import Persistence
