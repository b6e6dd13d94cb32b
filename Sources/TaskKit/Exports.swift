// TaskKit works only through the runtime and the entity code generated from Models/Tasks.xcdatamodeld.
@_exported import Persistence
