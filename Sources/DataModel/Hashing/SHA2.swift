/// SHA-256 and SHA-512 (FIPS 180-4), the digests Core Data's version hashes are made of.
///
/// The toolchain has no CryptoKit on Linux and the project takes no outside packages, so the
/// SHA-2 family lives here, written once over the word size: ``SHA256`` and ``SHA512`` are this
/// one algorithm with the constants of a ``SHA2Variant``. It is incremental: feed bytes with
/// `update`, then `finalize`.
public struct SHA2<Variant: SHA2Variant>: Sendable {
  private typealias Word = Variant.Word

  /// The eight words of the chaining state.
  private var h0: Word
  private var h1: Word
  private var h2: Word
  private var h3: Word
  private var h4: Word
  private var h5: Word
  private var h6: Word
  private var h7: Word
  /// Bytes of an incomplete block, fewer than ``blockSize``.
  private var buffer: [UInt8] = []
  private var compressedBlocks: UInt64 = 0

  /// Bytes in a word: 4 or 8.
  private static var wordSize: Int { Word.bitWidth / 8 }
  /// Bytes in a block: sixteen words.
  private static var blockSize: Int { 16 * wordSize }

  public init() {
    let initial = Variant.initialState
    (h0, h1, h2, h3) = (initial[0], initial[1], initial[2], initial[3])
    (h4, h5, h6, h7) = (initial[4], initial[5], initial[6], initial[7])
  }

  /// The digest of some bytes, in one call.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = Self()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Feeds more bytes.
  public mutating func update(_ bytes: some Sequence<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { update(contiguous: UnsafeRawBufferPointer($0)) }
    if done == nil { update(contiguous: Array(bytes)) }
  }

  private mutating func update(contiguous bytes: [UInt8]) {
    bytes.withUnsafeBytes { update(contiguous: $0) }
  }

  /// Feeds bytes a block at a time: whole blocks straight from the input, the rest buffered.
  private mutating func update(contiguous bytes: UnsafeRawBufferPointer) {
    let blockSize = Self.blockSize
    var offset = 0
    if !buffer.isEmpty {
      let taken = min(blockSize - buffer.count, bytes.count)
      buffer.append(contentsOf: bytes[0..<taken])
      offset = taken
      guard buffer.count == blockSize else { return }
      buffer.withUnsafeBytes { compress($0.baseAddress!) }
      buffer.removeAll(keepingCapacity: true)
    }
    while bytes.count - offset >= blockSize {
      compress(bytes.baseAddress! + offset)
      offset += blockSize
    }
    if offset < bytes.count { buffer.append(contentsOf: bytes[offset...]) }
  }

  /// The digest of everything fed so far: eight words, 32 bytes for SHA-256, 64 for SHA-512.
  public mutating func finalize() -> [UInt8] {
    let blockSize = Self.blockSize
    let wordSize = Self.wordSize
    let bitLength = (compressedBlocks * UInt64(blockSize) + UInt64(buffer.count)) &* 8
    // The rest of the message, 0x80, zeros, and the length in two words (big-endian; messages
    // here are far below 2^64 bits, so only the last 8 bytes are not zero) ending a block: one
    // block, or two when the length does not fit after the rest.
    let blocks = buffer.count < blockSize - 2 * wordSize ? 1 : 2
    withUnsafeTemporaryAllocation(byteCount: 2 * blockSize, alignment: 8) { tail in
      tail.initializeMemory(as: UInt8.self, repeating: 0)
      buffer.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: tail[0..<$0.count]).copyMemory(from: $0) }
      tail[buffer.count] = 0x80
      tail.storeBytes(of: bitLength.bigEndian, toByteOffset: blocks * blockSize - 8, as: UInt64.self)
      for block in 0..<blocks { compress(tail.baseAddress! + block * blockSize) }
    }
    buffer.removeAll()
    let words = [h0, h1, h2, h3, h4, h5, h6, h7]
    return [UInt8](unsafeUninitializedCapacity: 8 * wordSize) { digest, count in
      for (index, word) in words.enumerated() {
        UnsafeMutableRawBufferPointer(digest).storeBytes(
          of: word.bigEndian, toByteOffset: index * wordSize, as: Word.self)
      }
      count = 8 * wordSize
    }
  }

  /// Compresses the block at `block`.
  private mutating func compress(_ block: UnsafeRawPointer) {
    compressedBlocks &+= 1
    let rounds = Variant.roundConstants.count
    let (small0, small1) = (Variant.scheduleSigma0, Variant.scheduleSigma1)
    let (big0, big1) = (Variant.roundSigma0, Variant.roundSigma1)
    withUnsafeTemporaryAllocation(of: Word.self, capacity: rounds) { w in
      for i in 0..<16 {
        w[i] = Word(bigEndian: block.loadUnaligned(fromByteOffset: Self.wordSize * i, as: Word.self))
      }
      for i in 16..<rounds {
        let s0 = w[i - 15].rotatedRight(small0.0) ^ w[i - 15].rotatedRight(small0.1) ^ (w[i - 15] &>> small0.2)
        let s1 = w[i - 2].rotatedRight(small1.0) ^ w[i - 2].rotatedRight(small1.1) ^ (w[i - 2] &>> small1.2)
        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
      }
      var a = h0
      var b = h1
      var c = h2
      var d = h3
      var e = h4
      var f = h5
      var g = h6
      var h = h7
      Variant.roundConstants.withUnsafeBufferPointer { k in
        for i in 0..<rounds {
          let s1 = e.rotatedRight(big1.0) ^ e.rotatedRight(big1.1) ^ e.rotatedRight(big1.2)
          let choice = (e & f) ^ (~e & g)
          let temp1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
          let s0 = a.rotatedRight(big0.0) ^ a.rotatedRight(big0.1) ^ a.rotatedRight(big0.2)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          let temp2 = s0 &+ majority
          h = g
          g = f
          f = e
          e = d &+ temp1
          d = c
          c = b
          b = a
          a = temp1 &+ temp2
        }
      }
      h0 &+= a
      h1 &+= b
      h2 &+= c
      h3 &+= d
      h4 &+= e
      h5 &+= f
      h6 &+= g
      h7 &+= h
    }
  }
}

/// SHA-256 (FIPS 180-4): 32-bit words, 64 rounds, a 32-byte digest.
public typealias SHA256 = SHA2<SHA256Variant>

/// SHA-512 (FIPS 180-4): 64-bit words, 80 rounds, a 64-byte digest.
public typealias SHA512 = SHA2<SHA512Variant>

extension FixedWidthInteger where Self: UnsignedInteger {
  fileprivate func rotatedRight(_ count: Int) -> Self {
    (self &>> count) | (self &<< (Self.bitWidth - count))
  }
}
