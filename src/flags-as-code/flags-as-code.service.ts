/**
 * Export and import of namespaces in Flipt's document format, for the HTTP routes and the CLI alike. An import
 * reads and checks every document before writing any, merges those about one namespace, and writes each namespace
 * in one transaction (all of it or nothing); instances reload the namespace afterwards.
 */
import { Inject, Injectable } from '@nestjs/common';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { AuthenticationRecord } from '../auth/authentication.record';
import type { PermissionCheck } from '../permissions/permission-check';
import { InvalidError, NotFoundError, ValidationError } from '../common/errors';
import { requireKey } from '../common/validation';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { authorOf } from '../schedules/schedule-author';
import { Database, wholeNamespace } from '../storage/database.service';
import type { NamespaceDocument } from './document';
import { mergeDocuments } from './document-merge';
import type { ReadOptions } from './document-reader';
import { DocumentReadingProcess } from './document-reading.service';
import { writeDocuments, type DocumentFormat } from './document-writer';
import {
  namespaceKeys, readNamespaceDocument, writeNamespaceDocument, type ExportOptions, type ImportOptions, type ImportSummary,
} from './document.repository';

export interface ImportRequest extends ImportCheckedOptions, ReadOptions {
  /** Every document must be about this namespace (a document naming none is about it). */
  namespace?: string;
}

export interface ImportCheckedOptions extends Omit<ImportOptions, 'schedules'> {
  /** Who imports (absent: no authentication, as the CLI on its own database): the author of the document's schedules. */
  authentication?: AuthenticationRecord;
  /**
   * The caller's permissions (an import over HTTP with authorization on): creating a namespace that does not exist
   * needs `create` on `namespace` besides what the route declared. Absent: nothing is checked (the CLI's own database).
   */
  check?: PermissionCheck;
}

@Injectable()
export class FlagsAsCodeService {
  private readonly maxAliasNodes: number;
  private readonly schedules: FlagpoleConfig['schedules'];

  constructor(
    private readonly db: Database,
    private readonly reading: DocumentReadingProcess,
    @Inject(CONFIG) config: FlagpoleConfig,
  ) {
    this.maxAliasNodes = config.limits.maxYamlAliasNodes;
    this.schedules = config.schedules;
  }

  /** The namespace as a document's text (the export route). */
  async exportText(namespace: string, format: string, sortByKey = false, options: ExportOptions = {}): Promise<{ text: string; format: DocumentFormat }> {
    const f = format.toLowerCase();
    if (f !== 'yaml' && f !== 'json') throw new ValidationError('format', 'must be yaml or json');
    return { text: writeDocuments(await this.exportDocuments([namespace], options), f, { sortByKey }), format: f };
  }

  /** The namespaces as documents, in the order asked; all of them (in creation order) for 'all'. */
  exportDocuments(namespaces: readonly string[] | 'all', options: ExportOptions = {}): Promise<NamespaceDocument[]> {
    return this.db.read(async (em) => {
      const keys = namespaces === 'all' ? await namespaceKeys(em) : namespaces;
      const out: NamespaceDocument[] = [];
      for (const key of keys) {
        const doc = await readNamespaceDocument(em, key, options);
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
    // Read off the event loop (document-reading.service.ts); only plain options cross to the reading process.
    const { source, careful, defaultNamespace } = request;
    const documents = await this.reading.read(text, {
      source, careful, maxAliasNodes: this.maxAliasNodes, defaultNamespace: request.namespace ?? defaultNamespace, maxScheduleSteps: this.schedules.maxSteps,
    });
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
    const writing: ImportOptions = {
      ...options, schedules: { author: authorOf(options.authentication), maxActivePerFlag: this.schedules.maxActivePerFlag },
    };
    for (const [key, doc] of mergeDocuments(documents)) {
      try {
        summaries.push(await this.db.write(wholeNamespace(key), (em, locked) => {
          // Judged on the locked row: whether the import creates the namespace is known only here.
          if (locked === null) options.check?.('create', 'namespace', key);
          return writeNamespaceDocument(em, doc, locked, writing);
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
