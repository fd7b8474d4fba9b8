/**
 * Every route Nest declares, with the controller class and method that serve it, in the form Fastify registers it
 * (`GET /api/v1/namespaces/:key`). Fastify's own hooks see only the URL pattern and Nest's wrapped handler, so a
 * decision that depends on a route's metadata (does the one guard enforce anything here?) is looked up by
 * `method + url` from this list. The paths are built by Nest's own RoutePathFactory, as its router builds them.
 */
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ApplicationConfig, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { RoutePathFactory } from '@nestjs/core/router/route-path-factory';

export interface NestRoute {
  method: string;
  url: string;
  handler: Function;
  controller: Function;
}

export function nestRoutes(app: INestApplication): NestRoute[] {
  // Flagpole sets no global prefix and no versioning: the default configuration builds the same paths.
  const paths = new RoutePathFactory(new ApplicationConfig());
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
            for (const url of paths.create({ ctrlPath: ctrl, methodPath: path }, requestMethod)) {
              routes.push({ method: RequestMethod[requestMethod], url, handler, controller });
            }
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
