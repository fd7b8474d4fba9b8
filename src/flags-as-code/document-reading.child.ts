/**
 * The child process's side of DocumentReadingProcess (document-reading.service.ts): reads each text it is sent and
 * answers with the documents and their places, or with the error's message and gRPC code. Pure reading: no Nest, no
 * database, nothing kept between texts. It ends with its parent (the IPC channel closing).
 */
import { DomainError } from '../common/errors';
import type { NamespaceDocument } from './document';
import { placesOf, type Place } from './document-places';
import { readDocuments, type ReadOptions } from './document-reader';

export interface ReadingJob {
  text: string;
  options: ReadOptions;
}

export type ReadingAnswer =
  /** Sent once, when the process has loaded: a text's deadline counts from here, not from the process's start. */
  | { ready: true }
  | { documents: NamespaceDocument[]; places: Place[] }
  | { error: { message: string; code: number | null } };

const send = (answer: ReadingAnswer) => process.send?.(answer);

if (process.send) {
  process.on('message', ({ text, options }: ReadingJob) => {
    let answer: ReadingAnswer;
    try {
      const documents = readDocuments(text, options);
      answer = { documents, places: placesOf(documents) };
    } catch (e) {
      answer = { error: { message: (e as Error).message, code: e instanceof DomainError ? e.code : null } };
    }
    send(answer);
  });
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}
