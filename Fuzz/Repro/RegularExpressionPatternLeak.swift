// Reproduces the leak LeakSanitizer reported at the exit of the Predicate fuzz target (see
// docs/reliability.md, "LeakSanitizer"): Foundation on Linux loses the UTF-16 copy of every
// regular expression pattern longer than 256 UTF-16 units that NSRegularExpression compiles.
// `_CFRegularExpressionCreate` mallocs that copy when the string has no UTF-16 storage of its
// own (a Swift string never has), hands it to ICU's `uregex_open` (which copies it) and frees it
// only when compiling fails.
//
//   swiftc -sanitize=address -g Fuzz/Repro/RegularExpressionPatternLeak.swift -o /tmp/regex-leak
//   /tmp/regex-leak 256 257 1000         # 514 and 2,000 bytes leaked (2 per UTF-16 unit), none for 256
//   LSAN_OPTIONS=suppressions=Fuzz/lsan.supp /tmp/regex-leak 1000 lost:300 lost:10
//
// Nothing here keeps an expression: each is released at the end of its loop iteration, so what
// LeakSanitizer reports is lost inside Foundation. An argument `lost:N` compiles a pattern of N
// characters and deliberately never releases the expression: with Fuzz/lsan.supp, the report
// of that whole lost expression (its Swift object, 24 bytes) remains, so the suppression hides
// Foundation's lost pattern copies but not an expression a cache of ours would lose.
import Foundation

for argument in CommandLine.arguments.dropFirst() {
  let lost = argument.hasPrefix("lost:")
  guard let length = Int(argument.dropFirst(lost ? 5 : 0)), length > 0 else {
    print("usage: regex-leak [LENGTH | lost:LENGTH]...")
    exit(2)
  }
  let pattern = String(repeating: "a", count: length)
  let expression = try NSRegularExpression(pattern: pattern, options: [])
  _ = expression.firstMatch(in: "abc", range: NSRange(location: 0, length: 3))
  if lost { _ = Unmanaged.passRetained(expression) }
}
print("compiled \(CommandLine.arguments.count - 1) patterns")
