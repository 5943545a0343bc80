#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work that recurses as deep as its input is nested (swift-syntax's parser
/// and tree walks), run on a thread of its own with a large stack.
enum LargeStack {
    /// The stack asked for first: address space, touched only as deep as the
    /// work goes. Halved while the system refuses it (a `ulimit -v`), down to
    /// 8 MiB; below that the work runs on the caller's thread.
    static let bytes = 1 << 30

    /// Runs `body` on a new thread with a large stack and waits for it.
    static func run<T>(_ body: () -> T) -> T {
        var result: T?
        withoutActuallyEscaping({ result = body() }) { work in
            let job = Unmanaged.passRetained(Job(work)).toOpaque()
            if !start(job) {
                Unmanaged<Job>.fromOpaque(job).release()
                work()
            }
        }
        guard let result else { fatalError("the large-stack thread ended without a result") }
        return result
    }

    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    /// Starts and joins the thread; false if no stack size could be had.
    private static func start(_ job: UnsafeMutableRawPointer) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        var size = bytes
        while size >= 8 << 20 {
            if pthread_attr_setstacksize(&attributes, size) == 0 {
                #if canImport(Glibc)
                var thread = pthread_t()
                #else
                var thread: pthread_t?
                #endif
                let created = pthread_create(&thread, &attributes, { context in
                    guard let context else { return nil }
                    Unmanaged<Job>.fromOpaque(context).takeRetainedValue().work()
                    return nil
                }, job)
                if created == 0 {
                    #if canImport(Glibc)
                    pthread_join(thread, nil)
                    #else
                    if let thread { pthread_join(thread, nil) }
                    #endif
                    return true
                }
            }
            size /= 2
        }
        return false
    }
}
