// The code generator prints Swift from validated model types.
@_exported import DataModel
