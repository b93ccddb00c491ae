/**
 * Definition questions ("where is X defined?") on a small real index (sql.js + tree-sitter, Kotlin): the file that
 * defines the name comes first with its definition's line, when the definition sits in a test file, when the name
 * is a nested class that a dozen case-folded `close()` functions share, and when it is a Kotlin `fun interface`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getContextForQuestion } from '../../src/core/context/context';
import { analyseQuestion } from '../../src/core/question/analysis';
import type { IndexDatabase } from '../../src/core/store/database';
import { indexedWorkspace } from '../helpers/indexed-workspace';
import { captureLogger, removeWorkspace } from '../helpers/workspace';

const counting = (name: string) => `package okio.util

import okio.Buffer
import okio.Source

/** A forwarding source that counts the bytes read through the forwarding source. */
class ${name}(source: Source) : ForwardingSource(source) {
    var bytesRead = 0L

    override fun read(sink: Buffer, byteCount: Long): Long {
        val read = super.read(sink, byteCount)
        if (read != -1L) bytesRead += read
        return read
    }
}
`;

const closer = (i: number) => `package app.io

class Resource${i} : AutoCloseable {
    private var closed = false

    override fun close() {
        closed = true
    }
}
`;

const FILES: Record<string, string> = {
  'src/test/kotlin/okio/ResponseBodyTest.kt': `package okio

import org.junit.Test

class ResponseBodyTest {
    @Test fun readsAll() {
        check(true)
    }
}

abstract class ForwardingSource(
    val delegate: Source,
) : Source {
    override fun read(sink: Buffer, byteCount: Long): Long = delegate.read(sink, byteCount)

    override fun close() = delegate.close()
}
`,
  'src/main/kotlin/okio/util/CountingSource.kt': counting('CountingSource'),
  'src/main/kotlin/okio/util/MeteredSource.kt': counting('MeteredSource'),
  'src/main/kotlin/okio/util/ThrottledSource.kt': counting('ThrottledSource'),
  'src/main/kotlin/app/ws/RealWebSocket.kt': `package app.ws

class RealWebSocket {
    private val queue = ArrayDeque<Any>()

    fun close(code: Int, reason: String?): Boolean {
        queue.add(Close(code, reason))
        return true
    }

    internal class Close(
        val code: Int,
        val reason: String?,
    )
}
`,
  ...Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`src/main/kotlin/app/io/Resource${i}.kt`, closer(i)])),
  'src/main/kotlin/app/time/Clock.kt': 'package app.time\n\nclass Clock {\n    fun now(): Long = System.currentTimeMillis()\n}\n',
  'src/test/kotlin/app/time/ClockTest.kt': 'package app.time\n\nclass ClockTest {\n    class Clock {\n        fun now(): Long = 0L\n    }\n\n    fun fakeClockNow() = Clock().now()\n}\n',
  'src/main/kotlin/app/http/Interceptor.kt': `package app.http

import java.io.IOException

/** Observes, modifies and short-circuits requests. */
fun interface Interceptor {
    @Throws(IOException::class)
    fun intercept(chain: Chain): Response

    companion object {
        inline operator fun invoke(crossinline block: (chain: Chain) -> Response): Interceptor = Interceptor { block(it) }
    }

    interface Chain {
        fun request(): Request

        fun proceed(request: Request): Response
    }
}
`,
  'src/main/kotlin/app/http/RealInterceptorChain.kt': `package app.http

/** The chain of interceptors: each interceptor calls the next interceptor through the chain. */
class RealInterceptorChain(
    private val interceptors: List<Interceptor>,
    private val index: Int,
    private val request: Request,
) : Interceptor.Chain {
    override fun request(): Request = request

    override fun proceed(request: Request): Response {
        val next = RealInterceptorChain(interceptors, index + 1, request)
        val interceptor: Interceptor = interceptors[index]
        return interceptor.intercept(next)
    }
}
`,
};

let root = '';
let db: IndexDatabase;

before(async () => {
  ({ root, db } = await indexedWorkspace(FILES));
});
after(() => removeWorkspace(root));

const first = async (question: string) => {
  const r = await getContextForQuestion(db, analyseQuestion(question), { format: 'json' }, { logger: captureLogger(), clock: { now: () => 0 } });
  return `${r.files[0]?.path}:${r.files[0]?.line}`;
};

describe('definition questions', () => {
  it('find a class defined only in a test file, above the source files that extend it', async () => {
    assert.equal(await first('Where is ForwardingSource defined?'), 'src/test/kotlin/okio/ResponseBodyTest.kt:11');
  });

  it('still prefer the source definition when a test defines the same name too', async () => {
    assert.equal(await first('Where is Clock defined?'), 'src/main/kotlin/app/time/Clock.kt:3');
  });

  it('find a nested class whose name a dozen close() functions share case-folded', async () => {
    assert.equal(await first('Where is Close defined?'), 'src/main/kotlin/app/ws/RealWebSocket.kt:11');
  });

  it('find a Kotlin `fun interface` in its own file, above the class that implements its Chain', async () => {
    assert.equal(await first('Where is Interceptor defined?'), 'src/main/kotlin/app/http/Interceptor.kt:6');
  });
});
