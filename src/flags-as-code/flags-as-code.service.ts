/**
 * Export and import of namespaces in Flipt's document format, for the HTTP routes and the CLI alike. An import
 * reads and checks every document before writing any, merges those about one namespace, and writes each namespace
 * in one transaction (all of it or nothing); instances reload the namespace afterwards.
 */
import { Inject, Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { PermissionCheck } from '../authorization/permission-check';
import { InvalidError, NotFoundError, ValidationError } from '../common/errors';
import { requireKey } from '../common/validation';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { Database, wholeNamespace } from '../storage/database.service';
import type { NamespaceDocument } from './document';
import { mergeDocuments } from './document-merge';
import type { ReadOptions } from './document-reader';
import { DocumentReadingThread } from './document-reading.service';
import { writeDocuments, type DocumentFormat } from './document-writer';
import { namespaceKeys, readNamespaceDocument, writeNamespaceDocument, type ImportOptions, type ImportSummary } from './document.repository';

export interface ImportRequest extends ImportCheckedOptions, ReadOptions {
  /** Every document must be about this namespace (a document naming none is about it). */
  namespace?: string;
}

export interface ImportCheckedOptions extends ImportOptions {
  /**
   * The caller's permissions (an import over HTTP with authorization on): creating a namespace that does not exist
   * needs `create` on `namespace` besides what the route declared. Absent: nothing is checked (the CLI's own database).
   */
  check?: PermissionCheck;
}

@Injectable()
export class FlagsAsCodeService {
  private readonly maxAliasNodes: number;

  constructor(
    private readonly db: Database,
    private readonly reading: DocumentReadingThread,
    @Inject(CONFIG) config: FlagpoleConfig,
  ) {
    this.maxAliasNodes = config.limits.maxYamlAliasNodes;
  }

  /** The namespace as a document's text (the export route). */
  async exportText(namespace: string, format: string, sortByKey = false): Promise<{ text: string; format: DocumentFormat }> {
    const f = format.toLowerCase();
    if (f !== 'yaml' && f !== 'json') throw new ValidationError('format', 'must be yaml or json');
    return { text: writeDocuments(await this.exportDocuments([namespace]), f, { sortByKey }), format: f };
  }

  /** The namespaces as documents, in the order asked; all of them (in creation order) for 'all'. */
  exportDocuments(namespaces: readonly string[] | 'all'): Promise<NamespaceDocument[]> {
    return this.db.read(async (em) => {
      const keys = namespaces === 'all' ? await namespaceKeys(em) : namespaces;
      const out: NamespaceDocument[] = [];
      for (const key of keys) {
        const doc = await readNamespaceDocument(em, key);
        if (!doc) throw new NotFoundError(`namespace ${JSON.stringify(key)}`);
        out.push(doc);
      }
      return out;
    });
  }

  async importText(text: string, request: ImportRequest = {}): Promise<ImportSummary[]> {
    // The path's key names the namespace of a document that names none: held to the API's key rule (an import must
    // not create a namespace the API would refuse).
    if (request.namespace !== undefined) requireKey('namespaceKey', request.namespace);
    // Read off the event loop (document-reading.service.ts); only plain options cross to the thread.
    const { source, careful, defaultNamespace } = request;
    const documents = await this.reading.read(text, { source, careful, maxAliasNodes: this.maxAliasNodes, defaultNamespace: request.namespace ?? defaultNamespace });
    if (request.namespace !== undefined) {
      const other = documents.find((d) => d.namespace.key !== request.namespace);
      if (other) {
        throw new InvalidError(`${other.at ? `${other.at}: ` : ''}the document is for namespace ${JSON.stringify(other.namespace.key)}, not ${JSON.stringify(request.namespace)}`);
      }
    }
    return this.importDocuments(documents, request);
  }

  /**
   * Documents about one namespace are merged first (a key defined twice refuses them all), so that each namespace is
   * written in one transaction: all of it or nothing. Namespaces in the order first named.
   */
  async importDocuments(documents: readonly NamespaceDocument[], options: ImportCheckedOptions): Promise<ImportSummary[]> {
    const summaries: ImportSummary[] = [];
    for (const [key, doc] of mergeDocuments(documents)) {
      try {
        summaries.push(await this.db.write(wholeNamespace(key), (em, locked) => {
          // Judged on the locked row: whether the import creates the namespace is known only here.
          if (locked === null) options.check?.('create', 'namespace', key);
          return writeNamespaceDocument(em, doc, locked, options);
        }));
      } catch (e) {
        // Another write created the same key (or namespace) between this import's checks and its inserts.
        if (e instanceof UniqueConstraintViolationException) {
          throw new InvalidError(`${doc.at ? `${doc.at}: ` : ''}namespace ${JSON.stringify(key)} changed during the import (a key was created at the same time); nothing of this document was written`);
        }
        throw e;
      }
    }
    return summaries;
  }
}
