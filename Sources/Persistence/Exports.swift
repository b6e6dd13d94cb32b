// Generated entity code imports only `Persistence`; the model types it refers to come with it.
@_exported import DataModel
