import KCSSyntax
import KeychainEngine

/// Calls: a SecItem call made by an app, its prompts answered, its result kept for the expectations.
extension Session {
    mutating func perform(_ call: CallStatement, _ s: Statement, _ device: DeviceHandle, _ file: SourceFile,
                          report: inout RunReport, _ options: RunOptions, _ observer: Observer?,
                          _ budget: inout RunBudget) throws(Diagnostic) {
        let app: AppHandle
        do throws(Diagnostic) {
            app = try resolveCallApp(call.app, file)
            if let barrier = world.callBarrier(app, on: device) { throw barrierDiagnostic(barrier, app, device, call, file) }
        } catch {
            hasLast = false
            lastFailedCall = (file, s.range)
            throw error
        }
        // Names a call resolves when it runs; the call is copied only to
        // carry a persistent reference, the common call lends its own. Held
        // as a call, one reference: an optional request, nil on the common
        // path, was destroyed field by field (60 instructions a call).
        var resolved: CallStatement?
        // Tested as a flag: binding the optional request copies it, nil or not.
        let namesRefs = call.namesRuntimeObjects
        if namesRefs {
            do throws(Diagnostic) {
                var c = call
                c.request = try resolveNames(call, file)  // with the persistent reference, for explanations
                resolved = c
            } catch {
                hasLast = false
                lastFailedCall = (file, s.range)
                throw error
            }
        }
        lastFailedCall = nil
        let result: CallResult
        var used: [PromptAnswer] = []
        if pendingAnswers.isEmpty {
            // Nothing queued: every prompt takes the default answer.
            let fallback = options.defaultPromptAnswer
            if namesRefs, let resolved {
                result = world.perform(resolved.request, as: app, on: device) { _ in fallback }
            } else {
                result = world.perform(call.request, as: app, on: device) { _ in fallback }
            }
        } else {
            // Prompts take the queued answers in order; what is left stays queued.
            var queue = pendingAnswers
            let fallback = options.defaultPromptAnswer
            result = world.perform((resolved ?? call).request, as: app, on: device) { _ in
                guard let next = queue.next() else { return fallback }
                used.append(next.answer)
                return next.answer
            }
            pendingAnswers = queue
        }
        let stopped: Bool
        if case .promptUnanswered = result.reason { stopped = true } else { stopped = false }
        // The Mac's file-based keychain asks through the item's access list,
        // which auth-ui does not change (SecItem.cpp never reads it).
        let asksThroughACL = stopped && result.searchedGroupIDs.contains(World.fileKeychainSearchGroup)
        // What the record needs, read before the result moves into the last call.
        let status = result.status, count = result.count
        callsMade += 1
        // Written over in place: the old record's parts are released one
        // by one as the new ones take their places.
        lastRecord.serial = callsMade
        if namesRefs, let resolved {
            lastRecord.call = resolved
        } else {
            lastRecord.call = call
        }
        // The same file call after call, and mostly no answers: a field that
        // keeps its value is not written (a retain and a release each).
        if lastRecord.file !== file { lastRecord.file = file }
        lastRecord.range = s.range
        lastRecord.app = app
        lastRecord.device = device
        lastRecord.status = status
        lastRecord.result = consume result
        if !(used.isEmpty && lastRecord.answers.isEmpty) { lastRecord.answers = used }
        lastRecord.stoppedAtPrompt = stopped
        hasLast = true
        // A call stopped by an unanswered prompt reports an error, not a status.
        if !stopped, let observer {
            // A call by persistent reference reports the reference's class.
            let spec = resolved?.request.spec ?? call.request.spec
            let record = CallRecord(file: file, range: s.range, app: call.app.text, operation: call.request.operation,
                                    itemClass: spec.itemClass ?? spec.persistentRef?.itemClass,
                                    status: status, count: count)
            // Hosts print a line per call: it counts as output.
            try budget.chargeOutput(CallLine.text(record).utf8.count + 1, file, s.range)
            observer(.call(record))
        }
        if stopped {
            // The call could not finish: later expectations say so rather
            // than check a status nobody would see on a device; `explain`
            // still explains it.
            throw Diagnostic(.promptUnanswered, "the call needs an answer to an authentication prompt and none is queued",
                             file: file, range: s.range,
                             hint: asksThroughACL
                                ? "put 'user approves' (or cancels, or fails, or always-allows, which puts the app on the item's list) before the call: "
                                    + "the Mac's file-based keychain asks before another app, or one re-signed since the item's access list took it in, "
                                    + "reads an item's data, and before another team's app changes its attributes; auth-ui does not change that"
                                : "put 'user approves' (or cancels, or fails) before the call, or say auth-ui=skip or auth-ui=fail; "
                                    + "reads that pass one declared context (context NAME, then context=NAME) share one approval")
        }
    }

    /// The request with the persistent references the call names resolved,
    /// after checking that a context it names is declared.
    private func resolveNames(_ call: CallStatement, _ file: SourceFile) throws(Diagnostic) -> CallRequest {
        var request = call.request
        if let ref = call.persistentRef {
            request.spec.persistentRef = try named(ref, in: world.persistentRefs, \.persistentRefs, "persistent reference", "kept", file,
                                                   hint: "keep one first: a find with return=persistent-ref, then 'keep persistent-ref as \(ref.text)'")
        }
        if let ref = call.changedPersistentRef {
            request.changes?.persistentRef = try named(ref, in: world.persistentRefs, \.persistentRefs, "persistent reference", "kept", file,
                                                       hint: "keep one first: 'keep persistent-ref as \(ref.text)'")
        }
        if let context = call.context {
            _ = try named(context, in: world.contexts, \.contexts, "context", "declared", file, hint: "declare it first: context \(context.text)")
        }
        return request
    }

    /// The runtime error for a call its app cannot make on the device.
    private func barrierDiagnostic(_ barrier: CallBarrier, _ app: AppHandle, _ device: DeviceHandle,
                                   _ call: CallStatement, _ file: SourceFile) -> Diagnostic {
        let a = world[app], label = world[device].label
        switch barrier {
        case .notInstalled:
            return Diagnostic(.appNotInstalled, "\(a.name) is not installed on \(label)", file: file,
                              range: call.app.range,
                              hint: "install it again with 'install \(a.name)': its items are still there")
        case .runsNoAppClips:
            return Diagnostic(.appNotInstalled, "\(a.name) is an App Clip, and \(label) runs "
                                 + "\(world.platform(of: device)): App Clips run on iPhone and iPad from iOS 14",
                              file: file, range: call.app.range,
                              hint: "give the device iOS 14 or later (platform ios 14, or device NAME platform=ios 14)")
        }
    }
}
