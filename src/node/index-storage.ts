/**
 * The index file on disk: read in place through an open descriptor (store/paged-file.ts), replaced atomically (write a
 * temp file, fsync, rename) and written by one process at a time (index-lock.ts).
 */
import { closeSync, constants, fstatSync, fsyncSync, openSync, promises as fsp, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EngineError, type ImageFile, type IndexStorage, memoryImage, writeFailure } from '../core';
import { acquireIndexLock, alive } from './index-lock';

/**
 * Windows refuses to rename a file over one that another handle holds open, and every reader would hold the image
 * open: there the image is read into memory whole (as sql.js always did) and no handle outlives a read.
 */
const READ_IN_PLACE = process.platform !== 'win32';

/** An open image: reads with pread, so they see the file this descriptor opened even after a rename replaces it. */
function imageFile(fd: number, size: number): ImageFile {
  let closed = false;
  return {
    size,
    read(into, position) {
      return readSync(fd, into, 0, into.length, position);
    },
    close() {
      if (!closed) closeSync(fd);
      closed = true;
    },
  };
}

/** `readInPlace`: hold images open and read pages as needed (default: everywhere but Windows, see READ_IN_PLACE). */
export function createFileIndexStorage(indexPath: string, { readInPlace = READ_IN_PLACE }: { readInPlace?: boolean } = {}): IndexStorage {
  let drafts = 0;
  const lockPath = `${indexPath}.lock`;
  const journalPath = `${indexPath}.journal`;

  async function ensureDir(): Promise<void> {
    const dir = dirname(indexPath);
    // Only the folder: the index lives outside the workspace by default (cache-dir.ts), so nothing here is for git.
    await fsp.mkdir(dir, { recursive: true }).catch((e: unknown) => { throw writeFailure(e, dir); });
  }

  /** Temp files left by writers that were killed mid-write (their pid is in the name and no longer runs). */
  async function removeStaleTemps(): Promise<void> {
    const dir = dirname(indexPath);
    const base = basename(indexPath);
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      const m = !name.startsWith(`${base}.`) ? null
        : name.endsWith('.tmp') ? /\.(\d+)\.\d+(?:\.\d+)?\.tmp$/.exec(name)
          // A waiter killed while taking the lock leaves its lock draft or a claimed stale lock (index-lock.ts).
          : name.startsWith(`${base}.lock.`) ? /^\.lock\.(\d+)\.[0-9a-f]+\.(?:new|stale)$/.exec(name.slice(base.length)) : null;
      if (m && !alive(Number(m[1]))) await fsp.rm(join(dir, name), { force: true });
    }
  }

  return {
    location: indexPath,
    async openImage() {
      let fd: number;
      try {
        fd = openSync(indexPath, 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      if (readInPlace) return imageFile(fd, fstatSync(fd).size);
      try {
        return memoryImage(readFileSync(fd));
      } finally {
        closeSync(fd);
      }
    },
    async createImage() {
      await ensureDir();
      await removeStaleTemps();
      const tmp = `${indexPath}.${process.pid}.${Date.now()}.${++drafts}.tmp`;
      let fd: number;
      try {
        fd = openSync(tmp, 'w+');
      } catch (e) {
        throw writeFailure(e, tmp);
      }
      let file = imageFile(fd, 0);
      let size = 0;
      let committed = false;
      let closed = false;
      return {
        get size() { return size; },
        read: (into, position) => file.read(into, position),
        write(bytes, position) {
          let done = 0;
          try {
            while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
          } catch (e) {
            throw writeFailure(e, tmp);
          }
          size = Math.max(size, position + bytes.length);
        },
        async commit() {
          try {
            fsyncSync(fd);
          } catch (e) {
            throw writeFailure(e, tmp);
          }
          if (!readInPlace) {
            // Let go of the file before it becomes the image (see READ_IN_PLACE); reads go on from memory.
            const bytes = new Uint8Array(size);
            for (let at = 0; at < size;) {
              const n = file.read(bytes.subarray(at), at);
              if (n <= 0) throw new Error(`index draft ended at byte ${at} of ${size}`);
              at += n;
            }
            file = memoryImage(bytes);
            closeSync(fd);
            closed = true;
          }
          await fsp.rename(tmp, indexPath).catch((e: unknown) => { throw writeFailure(e, indexPath); });
          committed = true;
        },
        close() {
          if (closed) return;
          closed = true;
          closeSync(fd);
          if (!committed) rmSync(tmp, { force: true });
        },
      };
    },
    async readJournal(offset) {
      let fh: Awaited<ReturnType<typeof fsp.open>>;
      try {
        fh = await fsp.open(journalPath, 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Uint8Array(0);
        throw e;
      }
      try {
        const size = (await fh.stat()).size;
        if (size <= offset) return new Uint8Array(0);
        const out = new Uint8Array(size - offset);
        let read = 0;
        while (read < out.length) {
          const { bytesRead } = await fh.read(out, read, out.length - read, offset + read);
          if (bytesRead === 0) break;
          read += bytesRead;
        }
        return out.subarray(0, read);
      } finally {
        await fh.close();
      }
    },
    async appendJournal(at, bytes) {
      await ensureDir();
      // 'a' would ignore the position; open for update and write at the cut instead (created when missing).
      const fh = await fsp.open(journalPath, constants.O_RDWR | constants.O_CREAT).catch((e: unknown) => { throw writeFailure(e, journalPath); });
      try {
        await fh.truncate(at);
        let written = 0;
        while (written < bytes.length) {
          const { bytesWritten } = await fh.write(bytes, written, bytes.length - written, at + written);
          written += bytesWritten;
        }
        await fh.sync();
      } catch (e) {
        throw writeFailure(e, journalPath);
      } finally {
        await fh.close();
      }
    },
    async journalSize() {
      return (await fsp.stat(journalPath).catch(() => undefined))?.size ?? 0;
    },
    async quarantine(reason) {
      const target = `${indexPath}.corrupt-${Date.now()}`;
      try {
        await fsp.rename(indexPath, target);
        await fsp.writeFile(`${target}.reason.txt`, `${reason}\n`).catch(() => undefined);
        return target;
      } catch {
        return undefined;
      }
    },
    async lock() {
      await ensureDir();
      const release = await acquireIndexLock(lockPath, indexPath);
      // A writer killed part-way leaves its draft behind (a full run's can be as large as the index).
      await removeStaleTemps();
      return release;
    },
    async size() {
      return (await fsp.stat(indexPath).catch(() => undefined))?.size ?? 0;
    },
    async stamp() {
      const s = await fsp.stat(indexPath).catch(() => undefined);
      return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : undefined;
    },
    async readSidecar(name) {
      try {
        return await fsp.readFile(`${indexPath}.${name}`);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
    },
    async writeSidecar(name, parts) {
      await ensureDir();
      const target = `${indexPath}.${name}`;
      // Named like the image's drafts, so removeStaleTemps deletes one a killed writer left.
      const tmp = `${indexPath}.${process.pid}.${Date.now()}.${++drafts}.tmp`;
      try {
        await fsp.writeFile(tmp, parts);
        await fsp.rename(tmp, target);
      } catch (e) {
        await fsp.rm(tmp, { force: true });
        throw writeFailure(e, target);
      }
    },
  };
}
