// The fast path of `WebSocketProtocolMachine`: a whole small frame that arrived in one read,
// checked, unmasked and delivered in one pass.
extension WebSocketProtocolMachine {
    /// The common case in one pass: a whole masked text or binary frame with FIN, no reserved
    /// bits and a 7-bit or 16-bit length up to `wholeFrameLimit`, at `start` while no message
    /// is in progress. It is unmasked
    /// into a stack buffer eight bytes at a time while its ASCII-ness is gathered, so only a
    /// text payload with a byte of 0x80 or more goes through the full UTF-8 validator.
    /// Returns the bytes consumed, or 0 for any other frame (the general path takes it; it
    /// makes the same checks, so the two agree on every input).
    mutating func receiveSmallFrame(_ start: UnsafeRawPointer, _ available: Int,
                                            _ onEvent: (Event) -> Void) -> Int {
        guard available >= 6, messageOpcode == nil else { return 0 }
        let first = start.load(as: UInt8.self)
        let second = start.load(fromByteOffset: 1, as: UInt8.self)
        // 0x81 text, 0x82 binary: FIN set, RSV clear; and MASK set.
        guard first == 0x81 || (first == 0x82 && configuration.acceptsBinary), second & 0x80 != 0 else { return 0 }
        var length = Int(second & 0x7F)
        var headerSize = 6
        if length == 126 {
            guard available >= 8 else { return 0 }
            length = Int(UInt16(bigEndian: start.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            guard length <= Int(Self.wholeFrameLimit) else { return 0 }
            headerSize = 8
        } else if length == 127 {
            return 0
        }
        guard available >= headerSize + length, length <= configuration.maxMessageSize - message.count else { return 0 }
        let key = UInt64(UInt32(littleEndian: start.loadUnaligned(fromByteOffset: headerSize - 4, as: UInt32.self)))
        let payload = start + headerSize
        let isText = first == 0x81
        let valid = withUnsafeTemporaryAllocation(byteCount: length, alignment: 8) { buffer -> Bool in
            guard let target = buffer.baseAddress else {
                onEvent(isText ? .text(UnsafeRawBufferPointer(buffer)) : .binary(UnsafeRawBufferPointer(buffer)))
                return true
            }
            // The key repeats every four bytes, so it lines up again after each 8 and 4 done.
            let word = key | key << 32
            var seen: UInt64 = 0   // every unmasked byte ORed in: bit 7 of a lane is set by any non-ASCII byte
            var index = 0
            while index + 8 <= length {
                let plain = payload.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ word
                target.storeBytes(of: plain, toByteOffset: index, as: UInt64.self)
                seen |= plain
                index += 8
            }
            if index + 4 <= length {
                let plain = payload.loadUnaligned(fromByteOffset: index, as: UInt32.self) ^ UInt32(truncatingIfNeeded: key)
                target.storeBytes(of: plain, toByteOffset: index, as: UInt32.self)
                seen |= UInt64(plain)
                index += 4
            }
            var keyByte = key
            while index < length {
                let plain = payload.load(fromByteOffset: index, as: UInt8.self) ^ UInt8(truncatingIfNeeded: keyByte)
                target.storeBytes(of: plain, toByteOffset: index, as: UInt8.self)
                seen |= UInt64(plain)
                keyByte >>= 8
                index += 1
            }
            let bytes = UnsafeRawBufferPointer(buffer)
            guard isText else {
                onEvent(.binary(bytes))
                return true
            }
            guard seen & 0x8080_8080_8080_8080 == 0 || UTF8Validator.isValid(bytes) else { return false }
            onEvent(.text(bytes))
            return true
        }
        if !valid { finish(onEvent, .fail(.invalidPayload)) }
        return headerSize + length
    }

    /// Reports a message that came whole in one frame of one read, unmasked into a stack
    /// buffer; returns the close code instead when it is not valid. The closure takes what
    /// it needs as locals: capturing `self` would copy the whole machine.
    func deliverWhole(_ opcode: WebSocketOpcode, _ masked: UnsafeRawBufferPointer,
                              _ onEvent: (Event) -> Void) -> WebSocketCloseCode? {
        let key = frame.key
        let inflater = messageCompressed ? self.inflater : nil
        let compressed = messageCompressed
        let limit = configuration.maxMessageSize
        return withUnsafeTemporaryAllocation(byteCount: masked.count, alignment: 1) { buffer in
            buffer.copyMemory(from: masked)
            key?.apply(to: buffer, frameOffset: 0)
            let bytes = UnsafeRawBufferPointer(buffer)
            if compressed { return Self.deliverCompressed(opcode, bytes, inflater: inflater, limit: limit, onEvent) }
            if opcode == .text && !UTF8Validator.isValid(bytes) { return .invalidPayload }
            onEvent(opcode == .text ? .text(bytes) : .binary(bytes))
            return nil
        }
    }
}
