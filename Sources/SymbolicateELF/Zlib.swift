import CSystemZlib

// The only file that calls zlib: one complete zlib stream inflated into a buffer of the size
// the section's header announces.

enum Zlib {
    /// Inflates `source` (a whole zlib stream) into a new buffer of exactly `size` bytes, or
    /// returns zlib's reason when the stream is damaged or does not produce exactly that many.
    /// The caller owns the buffer (`deallocate()`).
    static func inflate(_ source: UnsafeRawBufferPointer, size: Int) -> Result<UnsafeMutableRawBufferPointer, ZlibFailure> {
        guard size > 0 else { return .failure(ZlibFailure(message: "announces 0 uncompressed bytes")) }
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        guard let destination = output.baseAddress?.assumingMemoryBound(to: Bytef.self),
            let input = source.baseAddress?.assumingMemoryBound(to: Bytef.self)
        else {
            output.deallocate()
            return .failure(ZlibFailure(message: "no compressed bytes"))
        }
        var produced = uLongf(size)
        let status = uncompress(destination, &produced, input, uLong(source.count))
        guard status == Z_OK else {
            output.deallocate()
            let reason: String
            switch status {
            case Z_BUF_ERROR: reason = "the stream inflates to more than the announced \(size) bytes, or is truncated"
            case Z_DATA_ERROR: reason = "the zlib stream is damaged"
            case Z_MEM_ERROR: reason = "out of memory"
            default: reason = "zlib error \(status)"
            }
            return .failure(ZlibFailure(message: reason))
        }
        guard Int(produced) == size else {
            output.deallocate()
            return .failure(ZlibFailure(message: "the stream inflates to \(produced) bytes, not the announced \(size)"))
        }
        return .success(output)
    }
}

struct ZlibFailure: Error {
    var message: String
}
