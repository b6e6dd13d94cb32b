// Command-line parsing shared by `modelc` and `task` lives in this module.
