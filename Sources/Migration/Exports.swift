// The migration engine works on the model types and the stores of these two modules.
@_exported import DataModel
@_exported import Persistence
