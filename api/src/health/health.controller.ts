import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/access.decorators';
import { HealthService } from './health.service';

class HealthResponseDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ example: 'The API and its database are up' })
  message!: string;

  @ApiProperty({ enum: ['ok', 'error'], example: 'ok' })
  status!: 'ok' | 'error';

  @ApiProperty({ enum: ['up', 'down'], example: 'up' })
  db!: 'up' | 'down';
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Readiness: 200 when the API can reach its database, 503 otherwise' })
  @ApiResponse({ status: 200, type: HealthResponseDto })
  @ApiResponse({ status: 503, type: HealthResponseDto })
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponseDto> {
    if (await this.health.isDatabaseUp()) {
      return { success: true, message: 'The API and its database are up', status: 'ok', db: 'up' };
    }
    reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { success: false, message: 'The database is unreachable', status: 'error', db: 'down' };
  }
}
