/// SHA-256 and SHA-512 (FIPS 180-4), the digests Core Data's version hashes are made of.
///
/// The toolchain has no CryptoKit on Linux and the project takes no outside packages, so the two
/// digests live here, written once. They are incremental: feed bytes with `update`, then
/// `finalize`.
public struct SHA256: Sendable {
  private var h0: UInt32 = 0x6a09_e667
  private var h1: UInt32 = 0xbb67_ae85
  private var h2: UInt32 = 0x3c6e_f372
  private var h3: UInt32 = 0xa54f_f53a
  private var h4: UInt32 = 0x510e_527f
  private var h5: UInt32 = 0x9b05_688c
  private var h6: UInt32 = 0x1f83_d9ab
  private var h7: UInt32 = 0x5be0_cd19
  /// Bytes of an incomplete block, fewer than 64.
  private var buffer: [UInt8] = []
  private var compressedBlocks: UInt64 = 0

  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  public init() {}

  /// The digest of some bytes, in one call.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = SHA256()
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
    var offset = 0
    if !buffer.isEmpty {
      let taken = min(64 - buffer.count, bytes.count)
      buffer.append(contentsOf: bytes[0..<taken])
      offset = taken
      guard buffer.count == 64 else { return }
      buffer.withUnsafeBytes { compress($0.baseAddress!) }
      buffer.removeAll(keepingCapacity: true)
    }
    while bytes.count - offset >= 64 {
      compress(bytes.baseAddress! + offset)
      offset += 64
    }
    if offset < bytes.count { buffer.append(contentsOf: bytes[offset...]) }
  }

  /// The 32-byte digest of everything fed so far.
  public mutating func finalize() -> [UInt8] {
    let bitLength = (compressedBlocks * 64 + UInt64(buffer.count)) &* 8
    // The rest of the message, 0x80, zeros, and the length as a big-endian UInt64 ending a block:
    // one block, or two when the length does not fit after the rest.
    let blocks = buffer.count < 56 ? 1 : 2
    withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
      tail.initializeMemory(as: UInt8.self, repeating: 0)
      buffer.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: tail[0..<$0.count]).copyMemory(from: $0) }
      tail[buffer.count] = 0x80
      tail.storeBytes(of: bitLength.bigEndian, toByteOffset: blocks * 64 - 8, as: UInt64.self)
      for block in 0..<blocks { compress(tail.baseAddress! + block * 64) }
    }
    buffer.removeAll()
    let words = (h0, h1, h2, h3, h4, h5, h6, h7)
    return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
      withUnsafeBytes(of: words) { raw in
        for index in 0..<8 {
          let word = raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
          UnsafeMutableRawBufferPointer(digest).storeBytes(of: word.bigEndian, toByteOffset: index * 4, as: UInt32.self)
        }
      }
      count = 32
    }
  }

  /// Compresses the 64-byte block at `block`.
  private mutating func compress(_ block: UnsafeRawPointer) {
    compressedBlocks &+= 1
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      for i in 0..<16 {
        w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))
      }
      for i in 16..<64 {
        let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
        let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
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
      Self.k.withUnsafeBufferPointer { k in
        for i in 0..<64 {
          let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
          let choice = (e & f) ^ (~e & g)
          let temp1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
          let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
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

/// SHA-512 (FIPS 180-4); see ``SHA256``.
public struct SHA512: Sendable {
  private var h0: UInt64 = 0x6a09_e667_f3bc_c908
  private var h1: UInt64 = 0xbb67_ae85_84ca_a73b
  private var h2: UInt64 = 0x3c6e_f372_fe94_f82b
  private var h3: UInt64 = 0xa54f_f53a_5f1d_36f1
  private var h4: UInt64 = 0x510e_527f_ade6_82d1
  private var h5: UInt64 = 0x9b05_688c_2b3e_6c1f
  private var h6: UInt64 = 0x1f83_d9ab_fb41_bd6b
  private var h7: UInt64 = 0x5be0_cd19_137e_2179
  /// Bytes of an incomplete block, fewer than 128.
  private var buffer: [UInt8] = []
  private var compressedBlocks: UInt64 = 0

  private static let k: [UInt64] = [
    0x428a_2f98_d728_ae22, 0x7137_4491_23ef_65cd, 0xb5c0_fbcf_ec4d_3b2f, 0xe9b5_dba5_8189_dbbc,
    0x3956_c25b_f348_b538, 0x59f1_11f1_b605_d019, 0x923f_82a4_af19_4f9b, 0xab1c_5ed5_da6d_8118,
    0xd807_aa98_a303_0242, 0x1283_5b01_4570_6fbe, 0x2431_85be_4ee4_b28c, 0x550c_7dc3_d5ff_b4e2,
    0x72be_5d74_f27b_896f, 0x80de_b1fe_3b16_96b1, 0x9bdc_06a7_25c7_1235, 0xc19b_f174_cf69_2694,
    0xe49b_69c1_9ef1_4ad2, 0xefbe_4786_384f_25e3, 0x0fc1_9dc6_8b8c_d5b5, 0x240c_a1cc_77ac_9c65,
    0x2de9_2c6f_592b_0275, 0x4a74_84aa_6ea6_e483, 0x5cb0_a9dc_bd41_fbd4, 0x76f9_88da_8311_53b5,
    0x983e_5152_ee66_dfab, 0xa831_c66d_2db4_3210, 0xb003_27c8_98fb_213f, 0xbf59_7fc7_beef_0ee4,
    0xc6e0_0bf3_3da8_8fc2, 0xd5a7_9147_930a_a725, 0x06ca_6351_e003_826f, 0x1429_2967_0a0e_6e70,
    0x27b7_0a85_46d2_2ffc, 0x2e1b_2138_5c26_c926, 0x4d2c_6dfc_5ac4_2aed, 0x5338_0d13_9d95_b3df,
    0x650a_7354_8baf_63de, 0x766a_0abb_3c77_b2a8, 0x81c2_c92e_47ed_aee6, 0x9272_2c85_1482_353b,
    0xa2bf_e8a1_4cf1_0364, 0xa81a_664b_bc42_3001, 0xc24b_8b70_d0f8_9791, 0xc76c_51a3_0654_be30,
    0xd192_e819_d6ef_5218, 0xd699_0624_5565_a910, 0xf40e_3585_5771_202a, 0x106a_a070_32bb_d1b8,
    0x19a4_c116_b8d2_d0c8, 0x1e37_6c08_5141_ab53, 0x2748_774c_df8e_eb99, 0x34b0_bcb5_e19b_48a8,
    0x391c_0cb3_c5c9_5a63, 0x4ed8_aa4a_e341_8acb, 0x5b9c_ca4f_7763_e373, 0x682e_6ff3_d6b2_b8a3,
    0x748f_82ee_5def_b2fc, 0x78a5_636f_4317_2f60, 0x84c8_7814_a1f0_ab72, 0x8cc7_0208_1a64_39ec,
    0x90be_fffa_2363_1e28, 0xa450_6ceb_de82_bde9, 0xbef9_a3f7_b2c6_7915, 0xc671_78f2_e372_532b,
    0xca27_3ece_ea26_619c, 0xd186_b8c7_21c0_c207, 0xeada_7dd6_cde0_eb1e, 0xf57d_4f7f_ee6e_d178,
    0x06f0_67aa_7217_6fba, 0x0a63_7dc5_a2c8_98a6, 0x113f_9804_bef9_0dae, 0x1b71_0b35_131c_471b,
    0x28db_77f5_2304_7d84, 0x32ca_ab7b_40c7_2493, 0x3c9e_be0a_15c9_bebc, 0x431d_67c4_9c10_0d4c,
    0x4cc5_d4be_cb3e_42b6, 0x597f_299c_fc65_7e2a, 0x5fcb_6fab_3ad6_faec, 0x6c44_198c_4a47_5817,
  ]

  public init() {}

  /// The digest of some bytes, in one call.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = SHA512()
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
    var offset = 0
    if !buffer.isEmpty {
      let taken = min(128 - buffer.count, bytes.count)
      buffer.append(contentsOf: bytes[0..<taken])
      offset = taken
      guard buffer.count == 128 else { return }
      buffer.withUnsafeBytes { compress($0.baseAddress!) }
      buffer.removeAll(keepingCapacity: true)
    }
    while bytes.count - offset >= 128 {
      compress(bytes.baseAddress! + offset)
      offset += 128
    }
    if offset < bytes.count { buffer.append(contentsOf: bytes[offset...]) }
  }

  /// The 64-byte digest of everything fed so far.
  public mutating func finalize() -> [UInt8] {
    let bitLength = (compressedBlocks * 128 + UInt64(buffer.count)) &* 8
    // The rest of the message, 0x80, zeros, and the length as a big-endian UInt128 (whose high
    // half is zero here) ending a block: one block, or two.
    let blocks = buffer.count < 112 ? 1 : 2
    withUnsafeTemporaryAllocation(byteCount: 256, alignment: 8) { tail in
      tail.initializeMemory(as: UInt8.self, repeating: 0)
      buffer.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: tail[0..<$0.count]).copyMemory(from: $0) }
      tail[buffer.count] = 0x80
      tail.storeBytes(of: bitLength.bigEndian, toByteOffset: blocks * 128 - 8, as: UInt64.self)
      for block in 0..<blocks { compress(tail.baseAddress! + block * 128) }
    }
    buffer.removeAll()
    let words = (h0, h1, h2, h3, h4, h5, h6, h7)
    return [UInt8](unsafeUninitializedCapacity: 64) { digest, count in
      withUnsafeBytes(of: words) { raw in
        for index in 0..<8 {
          let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
          UnsafeMutableRawBufferPointer(digest).storeBytes(of: word.bigEndian, toByteOffset: index * 8, as: UInt64.self)
        }
      }
      count = 64
    }
  }

  /// Compresses the 128-byte block at `block`.
  private mutating func compress(_ block: UnsafeRawPointer) {
    compressedBlocks &+= 1
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 80) { w in
      for i in 0..<16 {
        w[i] = UInt64(bigEndian: block.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
      }
      for i in 16..<80 {
        let s0 = w[i - 15].rotatedRight(1) ^ w[i - 15].rotatedRight(8) ^ (w[i - 15] >> 7)
        let s1 = w[i - 2].rotatedRight(19) ^ w[i - 2].rotatedRight(61) ^ (w[i - 2] >> 6)
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
      Self.k.withUnsafeBufferPointer { k in
        for i in 0..<80 {
          let s1 = e.rotatedRight(14) ^ e.rotatedRight(18) ^ e.rotatedRight(41)
          let choice = (e & f) ^ (~e & g)
          let temp1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
          let s0 = a.rotatedRight(28) ^ a.rotatedRight(34) ^ a.rotatedRight(39)
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

extension UInt32 {
  fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
    (self >> count) | (self << (32 - count))
  }
}

extension UInt64 {
  fileprivate func rotatedRight(_ count: UInt64) -> UInt64 {
    (self >> count) | (self << (64 - count))
  }
}
