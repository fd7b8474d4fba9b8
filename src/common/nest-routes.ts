/**
 * Every route Nest declares, with the controller class and method that serve it, in the form Fastify registers it
 * (`GET /api/v1/namespaces/:key`). Fastify's own hooks see only the URL pattern and Nest's wrapped handler, so a
 * decision that depends on a route's metadata (does the one guard enforce anything here?) is looked up by
 * `method + url` from this list. Paths are joined as Nest's router joins them when there is no global prefix and no
 * versioning (Flagpole sets neither): one leading slash, no trailing one.
 */
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';

export interface NestRoute {
  method: string;
  url: string;
  handler: Function;
  controller: Function;
}

export function nestRoutes(app: INestApplication): NestRoute[] {
  const scanner = new MetadataScanner();
  const routes: NestRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Function | null;
      if (!controller) continue;
      const ctrlPath = Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined;
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = controller.prototype[name] as Function;
        const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (methodPath === undefined) continue;
        const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
        for (const ctrl of asArray(ctrlPath ?? '')) {
          for (const path of asArray(methodPath)) {
            routes.push({ method: RequestMethod[requestMethod], url: joinPath(ctrl, path), handler, controller });
          }
        }
      }
    }
  }
  return routes;
}

function asArray(value: string | string[]): string[] {
  return Array.isArray(value) ? value : [value];
}

function joinPath(...parts: string[]): string {
  return `/${parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}
