import Foundation

/// Reads and writes binary property lists (`bplist00`): the container format of keyed archives,
/// and of a store's metadata (``StoreMetadata``, `Z_METADATA.Z_PLIST`).
///
/// Written for the files mapping models carry (expressions, user info, model snapshots) and
/// for store metadata, without Foundation's bridging, and for files from anywhere: every
/// offset, length and reference is checked against the data, a reference cycle is an error,
/// and a value shared by many containers is decoded once, so a damaged or hostile file gives a
/// ``PropertyListError``, never a crash or a runaway.
public enum BinaryPropertyList {
  /// The deepest nesting of arrays and dictionaries accepted.
  package static let maximumDepth = 512

  /// Decodes the top object of a binary property list.
  ///
  /// - Throws: ``PropertyListError`` when the data is not a binary property list or is damaged.
  public static func decode(_ data: Data) throws -> BinaryPropertyList.Value {
    var reader = try Reader(bytes: [UInt8](data))
    return try reader.value(at: reader.topObject, depth: 0)
  }

  /// Encodes a value as a binary property list, byte for byte the same for the same value.
  public static func encode(_ value: BinaryPropertyList.Value) -> Data {
    var writer = Writer()
    _ = writer.add(value)
    return writer.finish()
  }

  // MARK: - Reading

  private struct Reader {
    let bytes: [UInt8]
    let offsets: [Int]
    let referenceSize: Int
    let topObject: Int
    var decoded: [Int: BinaryPropertyList.Value] = [:]
    var inProgress: Set<Int> = []

    init(bytes: [UInt8]) throws {
      self.bytes = bytes
      guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
        throw PropertyListError("not a binary property list (no 'bplist00' header)")
      }
      let trailer = bytes.count - 32
      let offsetSize = Int(bytes[trailer + 6])
      referenceSize = Int(bytes[trailer + 7])
      let count = Self.unsigned(bytes[(trailer + 8)..<(trailer + 16)])
      let top = Self.unsigned(bytes[(trailer + 16)..<(trailer + 24)])
      let tableOffset = Self.unsigned(bytes[(trailer + 24)..<(trailer + 32)])
      guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
        throw PropertyListError(
          "damaged binary property list: offset size \(offsetSize), reference size \(referenceSize)")
      }
      guard count > 0, count <= UInt64(bytes.count), top < count,
        tableOffset >= 8, tableOffset <= UInt64(trailer),
        UInt64(trailer) - tableOffset >= count * UInt64(offsetSize)
      else {
        throw PropertyListError("damaged binary property list: its object table does not fit in the file")
      }
      var offsets: [Int] = []
      offsets.reserveCapacity(Int(count))
      for index in 0..<Int(count) {
        let start = Int(tableOffset) + index * offsetSize
        let offset = Self.unsigned(bytes[start..<(start + offsetSize)])
        guard offset >= 8, offset < tableOffset else {
          throw PropertyListError("damaged binary property list: object \(index) lies outside the object area")
        }
        offsets.append(Int(offset))
      }
      self.offsets = offsets
      self.topObject = Int(top)
    }

    /// The text of a one-byte string: ASCII as written, and each other byte the Latin-1
    /// character of its value, as Foundation reads these strings. Decoded here rather than by
    /// `String(bytes:encoding:)`, which cost tens of thousands of instructions a string on Linux
    /// (reading a store's metadata, about 40 strings, took longer than SQLite's opening of it).
    static func latin1String(_ bytes: ArraySlice<UInt8>) -> String {
      if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
      var scalars = String.UnicodeScalarView()
      scalars.append(contentsOf: bytes.lazy.map { Unicode.Scalar($0) })
      return String(scalars)
    }

    static func unsigned(_ slice: ArraySlice<UInt8>) -> UInt64 {
      slice.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The bytes `start..<start+count`, checked against the object area.
    func slice(_ start: Int, _ count: Int) throws -> ArraySlice<UInt8> {
      guard count >= 0, start >= 0, start <= bytes.count - 32, count <= bytes.count - 32 - start else {
        throw PropertyListError("damaged binary property list: a value runs past the end of the data")
      }
      return bytes[start..<(start + count)]
    }

    /// The length of a variable-size object whose marker's low nibble is `nibble`, and where
    /// its contents start.
    func length(nibble: UInt8, at offset: Int) throws -> (count: Int, start: Int) {
      guard nibble == 0xF else { return (Int(nibble), offset + 1) }
      let marker = try slice(offset + 1, 1).first!
      guard marker >> 4 == 0x1, marker & 0xF <= 3 else {
        throw PropertyListError("damaged binary property list: a length is not an integer")
      }
      let size = 1 << Int(marker & 0xF)
      let value = Self.unsigned(try slice(offset + 2, size))
      guard value <= UInt64(bytes.count) else {
        throw PropertyListError("damaged binary property list: a length of \(value) exceeds the data")
      }
      return (Int(value), offset + 2 + size)
    }

    func references(_ count: Int, at start: Int) throws -> [Int] {
      let (total, overflow) = count.multipliedReportingOverflow(by: referenceSize)
      guard !overflow else { throw PropertyListError("damaged binary property list: a container is too large") }
      let raw = try slice(start, total)
      return try (0..<count).map { index in
        let base = raw.startIndex + index * referenceSize
        let reference = Self.unsigned(raw[base..<(base + referenceSize)])
        guard reference < UInt64(offsets.count) else {
          throw PropertyListError(
            "damaged binary property list: a reference to object \(reference) of \(offsets.count)")
        }
        return Int(reference)
      }
    }

    mutating func value(at index: Int, depth: Int) throws -> BinaryPropertyList.Value {
      if let known = decoded[index] { return known }
      guard depth < BinaryPropertyList.maximumDepth else {
        throw PropertyListError("binary property list nested deeper than \(BinaryPropertyList.maximumDepth) levels")
      }
      guard inProgress.insert(index).inserted else {
        throw PropertyListError("damaged binary property list: object \(index) contains itself")
      }
      defer { inProgress.remove(index) }
      let offset = offsets[index]
      let marker = try slice(offset, 1).first!
      let nibble = marker & 0xF
      let value: BinaryPropertyList.Value
      switch marker >> 4 {
      case 0x0:
        switch marker {
        case 0x00, 0x0F: value = .null
        case 0x08: value = .bool(false)
        case 0x09: value = .bool(true)
        default: throw PropertyListError("binary property list: unknown marker 0x\(String(marker, radix: 16))")
        }
      case 0x1:
        guard nibble <= 4 else { throw PropertyListError("binary property list: integer of 2^\(nibble) bytes") }
        let size = 1 << Int(nibble)
        let raw = try slice(offset + 1, size)
        // 16-byte integers carry the value in their low 8 bytes.
        let bits = Self.unsigned(raw.suffix(min(size, 8)))
        value = .integer(size >= 8 ? Int64(bitPattern: bits) : Int64(bits))
      case 0x2:
        if nibble == 2 {
          value = .real(Double(Float(bitPattern: UInt32(Self.unsigned(try slice(offset + 1, 4))))))
        } else if nibble == 3 {
          value = .real(Double(bitPattern: Self.unsigned(try slice(offset + 1, 8))))
        } else {
          throw PropertyListError("binary property list: real of 2^\(nibble) bytes")
        }
      case 0x3:
        guard marker == 0x33 else { throw PropertyListError("binary property list: unknown date marker") }
        value = .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: Self.unsigned(try slice(offset + 1, 8)))))
      case 0x4:
        let (count, start) = try length(nibble: nibble, at: offset)
        value = .data(Data(try slice(start, count)))
      case 0x5:
        let (count, start) = try length(nibble: nibble, at: offset)
        value = .string(Self.latin1String(try slice(start, count)))
      case 0x6:
        let (count, start) = try length(nibble: nibble, at: offset)
        let (size, overflow) = count.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw PropertyListError("damaged binary property list: a string is too long") }
        let raw = try slice(start, size)
        let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map {
          UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1])
        }
        value = .string(String(decoding: units, as: UTF16.self))
      case 0x7:
        let (count, start) = try length(nibble: nibble, at: offset)
        value = .string(String(decoding: try slice(start, count), as: UTF8.self))
      case 0x8:
        value = .uid(Self.unsigned(try slice(offset + 1, Int(nibble) + 1).suffix(8)))
      case 0xA, 0xB, 0xC:
        let (count, start) = try length(nibble: nibble, at: offset)
        let elements = try references(count, at: start).map { try self.value(at: $0, depth: depth + 1) }
        value = marker >> 4 == 0xC ? .set(elements) : .array(elements)
      case 0xD:
        let (count, start) = try length(nibble: nibble, at: offset)
        let keys = try references(count, at: start)
        let objects = try references(count, at: start + count * referenceSize)
        var pairs: [(key: BinaryPropertyList.Value, value: BinaryPropertyList.Value)] = []
        pairs.reserveCapacity(count)
        for (key, object) in zip(keys, objects) {
          pairs.append((try self.value(at: key, depth: depth + 1), try self.value(at: object, depth: depth + 1)))
        }
        value = .dictionary(pairs)
      default:
        throw PropertyListError("binary property list: unknown marker 0x\(String(marker, radix: 16))")
      }
      decoded[index] = value
      return value
    }
  }

  // MARK: - Writing

  private struct Writer {
    var objects: [[UInt8]] = []
    /// Scalars already written, so that a string used as many keys is stored once.
    var scalars: [BinaryPropertyList.Value: Int] = [:]

    /// Adds a value and everything it holds; returns its object index.
    mutating func add(_ value: BinaryPropertyList.Value) -> Int {
      switch value {
      case .array(let elements), .set(let elements):
        let index = reserve()
        let references = elements.map { add($0) }
        objects[index] = header(value.isSet ? 0xC : 0xA, count: references.count) + references.flatMap(reference)
        return index
      case .dictionary(let pairs):
        let index = reserve()
        let keys = pairs.map { add($0.key) }
        let values = pairs.map { add($0.value) }
        objects[index] = header(0xD, count: pairs.count) + keys.flatMap(reference) + values.flatMap(reference)
        return index
      default:
        if let known = scalars[value] { return known }
        let index = reserve()
        objects[index] = scalar(value)
        scalars[value] = index
        return index
      }
    }

    mutating func reserve() -> Int {
      objects.append([])
      return objects.count - 1
    }

    /// References are written 4 bytes wide: enough for any archive modelc writes, and fixed
    /// before the objects are known.
    func reference(_ index: Int) -> [UInt8] {
      bigEndian(UInt64(index), size: 4)
    }

    func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
      (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    func header(_ kind: UInt8, count: Int) -> [UInt8] {
      if count < 15 { return [kind << 4 | UInt8(count)] }
      return [kind << 4 | 0xF] + integer(Int64(count))
    }

    func integer(_ value: Int64) -> [UInt8] {
      if value >= 0 && value <= 0xFF { return [0x10] + bigEndian(UInt64(value), size: 1) }
      if value >= 0 && value <= 0xFFFF { return [0x11] + bigEndian(UInt64(value), size: 2) }
      if value >= 0 && value <= 0xFFFF_FFFF { return [0x12] + bigEndian(UInt64(value), size: 4) }
      return [0x13] + bigEndian(UInt64(bitPattern: value), size: 8)
    }

    func scalar(_ value: BinaryPropertyList.Value) -> [UInt8] {
      switch value {
      case .null: return [0x00]
      case .bool(let flag): return [flag ? 0x09 : 0x08]
      case .integer(let number): return integer(number)
      case .real(let number): return [0x23] + bigEndian(number.bitPattern, size: 8)
      case .date(let date): return [0x33] + bigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
      case .data(let data): return header(0x4, count: data.count) + [UInt8](data)
      case .string(let string):
        if string.unicodeScalars.allSatisfy({ $0.value < 0x80 }) {
          return header(0x5, count: string.utf8.count) + Array(string.utf8)
        }
        let units = Array(string.utf16)
        return header(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
      case .uid(let number):
        let size = number <= 0xFF ? 1 : number <= 0xFFFF ? 2 : number <= 0xFFFF_FFFF ? 4 : 8
        return [0x80 | UInt8(size - 1)] + bigEndian(number, size: size)
      case .array, .set, .dictionary:
        preconditionFailure("containers are written by add(_:)")
      }
    }

    func finish() -> Data {
      var bytes = Array("bplist00".utf8)
      var offsets: [Int] = []
      for object in objects {
        offsets.append(bytes.count)
        bytes += object
      }
      let tableOffset = bytes.count
      let offsetSize = tableOffset <= 0xFF ? 1 : tableOffset <= 0xFFFF ? 2 : tableOffset <= 0xFFFF_FFFF ? 4 : 8
      for offset in offsets { bytes += bigEndian(UInt64(offset), size: offsetSize) }
      bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), 4]
      bytes += bigEndian(UInt64(objects.count), size: 8)
      bytes += bigEndian(0, size: 8)
      bytes += bigEndian(UInt64(tableOffset), size: 8)
      return Data(bytes)
    }
  }
}

extension BinaryPropertyList.Value {
  fileprivate var isSet: Bool {
    if case .set = self { return true }
    return false
  }
}
