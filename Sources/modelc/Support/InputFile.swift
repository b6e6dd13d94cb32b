import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a text file a command was given, with an error that names what is wrong with it.
enum InputFile {
  /// The file's text; fails naming the file and the problem: missing, a directory, unreadable,
  /// or not UTF-8 (with the line and byte of the first bad byte).
  static func readText(_ path: String) throws -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw CommandFailure("cannot read '\(path)': no such file")
    }
    guard !isDirectory.boolValue else {
      throw CommandFailure("cannot read '\(path)': it is a directory, not a file")
    }
    guard access(path, R_OK) == 0, let data = FileManager.default.contents(atPath: path) else {
      throw CommandFailure("cannot read '\(path)': permission denied", notes: ["check the file's permissions"])
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      let (line, column) = firstInvalidUTF8(in: data)
      throw CommandFailure(
        "\(path):\(line):\(column): the file is not UTF-8 text", notes: ["save the file as UTF-8 and try again"])
    }
    return text
  }

  /// The 1-based line and byte column of the first byte that is not valid UTF-8.
  static func firstInvalidUTF8(in data: Data) -> (line: Int, column: Int) {
    let bytes = [UInt8](data)
    var line = 1
    var lineStart = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let length: Int
      switch byte {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return (line, index - lineStart + 1)
      }
      let end = index + length
      let sequence = end <= bytes.count ? Array(bytes[index..<end]) : []
      guard !sequence.isEmpty, String(validating: sequence, as: UTF8.self) != nil else {
        return (line, index - lineStart + 1)
      }
      if byte == UInt8(ascii: "\n") {
        line += 1
        lineStart = end
      }
      index = end
    }
    return (line, index - lineStart + 1)
  }
}
