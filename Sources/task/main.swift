import TaskKit

print("task: no command yet")
