import Foundation
import Persistence
import Testing

@Suite("Binary property lists")
struct BinaryPropertyListTests {
  static let scalars: [BinaryPropertyList.Value] = [
    .string(""), .string("ascii"), .string("é UTF-16 ☃ 👩‍👩‍👧"), .string(String(repeating: "x", count: 300)),
    .integer(0), .integer(1), .integer(-1), .integer(255), .integer(256), .integer(65_535), .integer(65_536),
    .integer(Int64(Int32.max)), .integer(Int64(UInt32.max) + 1), .integer(Int64.max), .integer(Int64.min),
    .real(0), .real(-2.5), .real(1e300), .real(.infinity), .bool(true), .bool(false),
    .date(Date(timeIntervalSinceReferenceDate: 123.25)), .data(Data()), .data(Data((0..<40).map { UInt8($0) })),
    .uid(0), .uid(300), .uid(70_000), .null,
  ]

  @Test("Every kind of value round-trips, byte-identically when written again")
  func scalarsRoundTrip() throws {
    for value in Self.scalars {
      let wrapped = BinaryPropertyList.Value.array([value])
      let data = BinaryPropertyList.encode(wrapped)
      let decoded = try BinaryPropertyList.decode(data)
      #expect(decoded == wrapped, "\(value)")
      #expect(BinaryPropertyList.encode(decoded) == data)
    }
  }

  @Test("Containers of more than 14 elements, nested and shared, round-trip")
  func largeContainers() throws {
    let many = (0..<40).map { BinaryPropertyList.Value.integer(Int64($0)) }
    let dictionary = BinaryPropertyList.Value.dictionary(
      (0..<20).map { (key: .string("key\($0)"), value: .array(Array(many.prefix($0)))) })
    let value = BinaryPropertyList.Value.array([
      .array(many), .set(Array(many.prefix(16))), dictionary, dictionary, .array([]),
    ])
    let data = BinaryPropertyList.encode(value)
    #expect(try BinaryPropertyList.decode(data) == value)
    let big = BinaryPropertyList.Value.array((0..<70_000).map { .integer(Int64($0 % 1000)) })
    #expect(try BinaryPropertyList.decode(BinaryPropertyList.encode(big)) == big)
  }

  @Test("Damaged files are refused with an error, never a crash")
  func damaged() {
    let value = BinaryPropertyList.Value.dictionary([
      (key: .string("a"), value: .array((0..<20).map { .string("s\($0)") })),
      (key: .string("b"), value: .data(Data(repeating: 7, count: 30))),
    ])
    let data = BinaryPropertyList.encode(value)
    for length in 0..<data.count {
      #expect(throws: PropertyListError.self) { try BinaryPropertyList.decode(data.prefix(length)) }
    }
    for index in 0..<data.count {
      for flip: UInt8 in [0x01, 0x80, 0xFF] {
        var bytes = [UInt8](data)
        bytes[index] ^= flip
        _ = try? BinaryPropertyList.decode(Data(bytes))
      }
    }
    #expect(throws: PropertyListError.self) { try BinaryPropertyList.decode(Data("bplist00".utf8) + Data(count: 40)) }
    #expect(throws: PropertyListError.self) {
      try BinaryPropertyList.decode(Data("<?xml version=\"1.0\"?><plist/>".utf8))
    }
  }

  @Test("A container that contains itself is refused")
  func selfReference() throws {
    // An array (object 0) whose one element is itself.
    var bytes = Array("bplist00".utf8)
    bytes += [0xA1, 0x00]
    let tableOffset = bytes.count
    bytes += [0x08]
    bytes += [0, 0, 0, 0, 0, 0, 1, 1]
    bytes += [0, 0, 0, 0, 0, 0, 0, 1]
    bytes += [0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(tableOffset)]
    #expect {
      try BinaryPropertyList.decode(Data(bytes))
    } throws: { error in
      "\(error)".contains("contains itself")
    }
  }

  @Test("A one-byte string reads each byte above ASCII as its Latin-1 character")
  func oneByteStringsAreLatin1() throws {
    // The string "caf\u{E9}" written with the one-byte marker (0x54), as other writers may.
    var bytes = Array("bplist00".utf8) + [0x54, 0x63, 0x61, 0x66, 0xE9]
    bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [0, 0, 0, 0, 0, 0, 0, 13]
    bytes.insert(8, at: 13)  // the offset table: object 0 at byte 8
    #expect(try BinaryPropertyList.decode(Data(bytes)) == .string("caf\u{E9}"))
    // Every byte value, and ASCII (the common case) as written.
    let all = Array(0...255).map { UInt8($0) }
    var long = Array("bplist00".utf8) + [0x5F, 0x11, 0x01, 0x00] + all
    let table = long.count
    long += [8] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
    long += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
    let expected = String(String.UnicodeScalarView(all.map { Unicode.Scalar($0) }))
    #expect(try BinaryPropertyList.decode(Data(long)) == .string(expected))
    #expect(try BinaryPropertyList.decode(BinaryPropertyList.encode(.string("plain ascii"))) == .string("plain ascii"))
  }
}
