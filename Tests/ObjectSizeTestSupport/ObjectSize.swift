#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sizes of class instances as the Swift runtime and malloc see them, for tests that pin the
/// sizes the source comments claim ("40 bytes, a 48-byte malloc block").
public enum ObjectSize {
    /// The bytes the Swift runtime allocates for an instance of `type`: its header (16 bytes)
    /// and stored properties, as its class metadata records them.
    public static func instance(of type: AnyClass) -> Int {
        #if canImport(ObjectiveC)
        return class_getInstanceSize(type)
        #else
        // Without Objective-C interop a class's metadata is: kind, superclass, flags (32
        // bits), instance address point (32 bits), then the instance size (32 bits).
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
        #endif
    }

    /// The malloc block that holds `object`: on glibc its chunk (the usable size and the
    /// 8-byte chunk header), on Darwin the block size.
    public static func mallocBlock(of object: AnyObject) -> Int {
        let address = Unmanaged.passUnretained(object).toOpaque()
        #if canImport(Glibc)
        return usableSize(address) + MemoryLayout<Int>.size
        #else
        return malloc_size(address)
        #endif
    }

    /// The malloc block that an allocation of `bytes` takes: on glibc the smallest chunk of
    /// at least 32 bytes, a multiple of 16, with room for its 8-byte header; on Darwin the
    /// next multiple of 16. For objects that cannot be made without their surroundings.
    public static func mallocBlock(forAllocationOf bytes: Int) -> Int {
        #if canImport(Glibc)
        return max(32, (bytes + MemoryLayout<Int>.size + 15) & ~15)
        #else
        return (bytes + 15) & ~15
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_usable_size`, which `<malloc.h>` declares and the Glibc module does not import.
    private static func usableSize(_ address: UnsafeMutableRawPointer) -> Int {
        guard let symbol = symbol("malloc_usable_size") else {
            fatalError("malloc_usable_size is not in the process")
        }
        let function = unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
        return function(address)
    }
    #endif
}

extension ObjectSize {
    /// Whether glibc's (or Darwin's) own malloc serves this process: false under Address or
    /// Thread Sanitizer, whose allocators size blocks their own way.
    public static var isSystemMalloc: Bool {
        symbol("__asan_init") == nil && symbol("__tsan_init") == nil
    }

    /// The address of the C symbol `name` in the process, if it is there.
    static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
        return dlsym(nil, name)  // RTLD_DEFAULT
        #else
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)  // RTLD_DEFAULT
        #endif
    }
}
