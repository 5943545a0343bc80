import KCSSyntax
import KeychainEngine

/// Calls: a SecItem call made by an app, its prompts answered, its result kept for the expectations.
extension Session {
    mutating func perform(_ call: CallStatement, _ s: Statement, _ device: DeviceHandle, _ file: SourceFile,
                          report: inout RunReport, _ options: RunOptions, _ observer: Observer?,
                          _ budget: inout RunBudget) throws(Diagnostic) {
        let app: AppHandle
        do throws(Diagnostic) {
            app = try resolveApp(call.app, file)
        } catch {
            last = nil
            lastFailedCall = (file, s.range)
            throw error
        }
        guard world.isInstalled(app, on: device) else {
            last = nil
            lastFailedCall = (file, s.range)
            let a = world[app]
            throw Diagnostic(.appNotInstalled, "\(a.name) is not installed on \(world[device].label)", file: file,
                             range: call.app.range,
                             hint: "install it again with 'install \(a.name)': its items are still there")
        }
        var request = call.request
        do throws(Diagnostic) {
            if let ref = call.persistentRef {
                request.spec.persistentRef = try named(ref, in: world.persistentRefs, "persistent reference", "kept", file,
                                                       hint: "keep one first: a find with return=persistent-ref, then 'keep persistent-ref as \(ref.text)'")
            }
            if let ref = call.changedPersistentRef {
                request.changes?.persistentRef = try named(ref, in: world.persistentRefs, "persistent reference", "kept", file,
                                                           hint: "keep one first: 'keep persistent-ref as \(ref.text)'")
            }
            if let context = call.context {
                _ = try named(context, in: world.contexts, "context", "declared", file, hint: "declare it first: context \(context.text)")
            }
        } catch {
            last = nil
            lastFailedCall = (file, s.range)
            throw error
        }
        lastFailedCall = nil
        // Prompts take the queued answers in order; what is left stays queued.
        var queue = pendingAnswers
        var used: [PromptAnswer] = []
        let fallback = options.defaultPromptAnswer
        let result = world.perform(request, as: app, on: device) { _ in
            guard !queue.isEmpty else { return fallback }
            let next = queue.removeFirst()
            used.append(next.answer)
            return next.answer
        }
        pendingAnswers = queue
        var resolved = call
        if call.persistentRef != nil || call.changedPersistentRef != nil {
            resolved.request = request  // with the persistent reference, for explanations
        }
        last = LastCall(call: resolved, file: file, range: s.range, app: app, device: device, result: result, answers: used,
                        stoppedAtPrompt: result.reason == .promptUnanswered)
        // A call stopped by an unanswered prompt reports an error, not a status.
        if result.reason != .promptUnanswered, let observer {
            // A call by persistent reference reports the reference's class.
            let record = CallRecord(file: file, range: s.range, app: call.app.text, operation: call.request.operation,
                                    itemClass: request.spec.itemClass ?? request.spec.persistentRef?.itemClass,
                                    status: result.status, count: result.count)
            // Hosts print a line per call: it counts as output.
            try budget.chargeOutput(CallLine.text(record).utf8.count + 1, file, s.range)
            observer(.call(record))
        }
        if result.reason == .promptUnanswered {
            // The call could not finish: later expectations say so rather
            // than check a status nobody would see on a device; `explain`
            // still explains it.
            throw Diagnostic(.promptUnanswered, "the call needs an answer to an authentication prompt and none is queued",
                             file: file, range: s.range,
                             hint: "put 'user approves' (or cancels, or fails) before the call, or say auth-ui=skip or auth-ui=fail")
        }
    }
}
