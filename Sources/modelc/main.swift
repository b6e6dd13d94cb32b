import DataModel

print("modelc: no command yet")
