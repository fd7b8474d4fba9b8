/** `/meta/info` and `/meta/config` bodies, shaped as Flipt's (facts §2.5): fields Go leaves out when empty are left out. */
import { Inject, Injectable } from '@nestjs/common';
import { analyticsStorage } from '../config/analytics-storage';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { redactConfig, type ConfigView } from '../config/config.redact';
import { buildInfo, goArch, goOs, isRelease } from './build-info';

export interface MetaInfo {
  version: string;
  commit?: string;
  buildDate?: string;
  /** Flagpole's: the Node.js version, where Flipt reports `goVersion`. */
  nodeVersion: string;
  updateAvailable: boolean;
  isRelease: boolean;
  os: string;
  arch: string;
  authentication: { required: boolean };
  storage: { type: string; readOnly?: boolean };
  analytics: { enabled?: boolean };
  /** Flagpole's: whether flags' lifecycle is checked and its routes mounted (`lifecycle.enabled`). */
  lifecycle: { enabled?: boolean };
}

@Injectable()
export class MetaService {
  private readonly info: MetaInfo;
  private readonly view: ConfigView;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    const build = buildInfo();
    this.info = {
      version: build.version,
      ...(build.commit ? { commit: build.commit } : {}),
      ...(build.buildDate ? { buildDate: build.buildDate } : {}),
      nodeVersion: process.version,
      // Flagpole never checks for new releases (meta.check_for_updates is accepted but not acted on).
      updateAvailable: false,
      isRelease: isRelease(build.version),
      os: goOs(),
      arch: goArch(),
      authentication: { required: config.authentication.required },
      // Declarative storage is read-only whatever storage.read_only says.
      storage: { type: config.storage.type, ...(config.storage.readOnly || config.storage.type !== 'database' ? { readOnly: true } : {}) },
      // Go leaves `enabled: false` out.
      analytics: analyticsStorage(config) ? { enabled: true } : {},
      lifecycle: config.lifecycle.enabled ? { enabled: true } : {},
    };
    this.view = redactConfig(config);
  }

  getInfo(): MetaInfo {
    return this.info;
  }

  getConfig(): ConfigView {
    return this.view;
  }
}
